export * from "./enums";
export * from "./casefile-create";
export * from "./events";
export * from "./jobs";
export * from "./creation-job";
export * from "./signing-rules";
export * from "./event-routes";
export * from "./storable-text";

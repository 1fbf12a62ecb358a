import { useEffect, useState } from "preact/hooks";

/**
 * A tiny hash router: every screen of the application is `#/path` under the one page the gateway
 * serves at /app/, so no server route is needed per screen and a reload lands on the same screen.
 */
export type Route =
  | { page: "archive" }
  | { page: "casefile"; id: number }
  | { page: "create" }
  | { page: "webhooks" }
  | { page: "webhook"; id: string }
  | { page: "company" }
  | { page: "invite"; token: string };

export function parseRoute(pathname: string, hash: string): Route {
  const invite = /^\/app\/invite\/([A-Za-z0-9_-]+)$/.exec(pathname);
  if (invite) return { page: "invite", token: invite[1]! };
  const path = hash.replace(/^#/, "") || "/";
  const casefile = /^\/casefiles\/(\d+)$/.exec(path);
  if (casefile) return { page: "casefile", id: Number(casefile[1]) };
  const webhook = /^\/webhooks\/([\w-]+)$/.exec(path);
  if (webhook) return { page: "webhook", id: webhook[1]! };
  if (path === "/new") return { page: "create" };
  if (path === "/webhooks") return { page: "webhooks" };
  if (path === "/company") return { page: "company" };
  return { page: "archive" };
}

export const href = {
  archive: "#/",
  caseFile: (id: number) => `#/casefiles/${id}`,
  create: "#/new",
  webhooks: "#/webhooks",
  webhook: (id: string) => `#/webhooks/${id}`,
  company: "#/company",
};

export function navigate(to: string): void {
  window.location.hash = to.replace(/^#/, "");
}

export function useRoute(): Route {
  const read = () => parseRoute(window.location.pathname, window.location.hash);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const on = () => setRoute(read());
    window.addEventListener("hashchange", on);
    return () => window.removeEventListener("hashchange", on);
  }, []);
  return route;
}

import type { Response } from "express";
import { AppError } from "@esign/errors";

/**
 * Whose eyes a request reads with: the authenticated user's role decides what it may see and change,
 * whichever credential it came with (a session cookie, or an API client of the user). Admins see all
 * of their customer's case files and configure the company; members see the case files they created
 * and those in folders shared with them (visibility.ts).
 */
export type Role = "admin" | "member";

export interface Viewer {
  userId: number;
  customerId: number;
  role: Role;
  /** How the request authenticated: the session needs X-CSRF-Token on unsafe methods. */
  via: "session" | "token";
}

export const roleOf = (isAdmin: boolean): Role => (isAdmin ? "admin" : "member");

export function setViewer(res: Response, viewer: Viewer): void {
  res.locals.viewer = viewer;
}

export function viewerOf(res: Response): Viewer {
  const v = res.locals.viewer as Viewer | undefined;
  if (!v) throw new AppError("unauthorized", "Not authenticated");
  return v;
}

/** The members' restriction for list queries: undefined for an admin (every case file of the customer). */
export const memberOf = (res: Response): { userId: number } | undefined => {
  const v = viewerOf(res);
  return v.role === "member" ? { userId: v.userId } : undefined;
};

export const adminRequired = () => new AppError("forbidden", "Only an administrator of the customer may do this");

import type { Response } from "express";
import { escapeHtml, sendHtml } from "../html/html-page";

/** The dashboard's login: paste an access token of an admin user; it becomes a session cookie. */
export function sendLoginPage(res: Response, status: number, loginPath: string, message?: string): void {
  const notice = message ? `<p class="banner">${escapeHtml(message)}</p>` : "";
  // The platform operators' own tool: English, like the dashboard it opens.
  sendHtml(res, status, {
    lang: "en",
    title: "Queue dashboard - sign in",
    body:
      `<h1>Queue dashboard</h1>${notice}` +
      `<p class="muted">Paste an access token (POST /oauth/token) of a platform operator.</p>` +
      `<form method="post" action="${escapeHtml(loginPath)}">` +
      `<p><label for="token">Access token</label><br><input id="token" name="token" type="password" autocomplete="off" size="60" required></p>` +
      `<p><button type="submit">Sign in</button></p></form>`,
  });
}

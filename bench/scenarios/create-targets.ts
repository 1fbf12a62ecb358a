import type http from "node:http";
import path from "node:path";
import type { Outcome } from "../load/open-model";
import { accessToken } from "../support/auth";
import { benchAgent, post } from "../support/http";
import type { MultipartTemplate } from "../support/multipart";
import { startBenchScript, startBenchService, type BenchProcess } from "../support/services";
import type { World } from "../support/world";
import type { BenchContext } from "./types";

/** Something that accepts create requests: the gateway, or the baseline server. */
export interface CreateTarget {
  name: "system" | "baseline";
  proc: BenchProcess;
  /** Sends one create; `onCreated` gets the job id of a 200. */
  fire(onCreated?: (jobId: string) => void): Promise<Outcome>;
}

function target(
  name: CreateTarget["name"],
  proc: BenchProcess,
  url: URL,
  headers: Record<string, string | number>,
  tpl: MultipartTemplate,
  agent: http.Agent,
): CreateTarget {
  return {
    name,
    proc,
    async fire(onCreated) {
      const res = await post(agent, url, headers, tpl.chunks());
      if (res.status !== 200) return { ok: false, detail: `http ${res.status}` };
      if (onCreated) {
        const id = (JSON.parse(res.body) as { jobs?: { uuid: string }[] }).jobs?.[0]?.uuid;
        if (id) onCreated(id);
      }
      return { ok: true };
    },
  };
}

export async function startGatewayTarget(
  ctx: BenchContext,
  world: World,
  tpl: MultipartTemplate,
  extraEnv: Record<string, string> = {},
): Promise<CreateTarget> {
  const gateway = await startBenchService("api-gateway", {
    env: world.env(extraEnv),
    cpuProfDir: ctx.profile.has("api-gateway") ? path.join(ctx.profDir, `api-gateway-${world.name}`) : undefined,
  });
  const token = await accessToken(gateway.url, await world.customer());
  const url = new URL(`${gateway.url}/send/api/v1/casefiles/20251022/create`);
  const headers = { "content-type": tpl.contentType, "content-length": tpl.contentLength, "x-auth-token": token };
  return target("system", gateway, url, headers, tpl, benchAgent());
}

export async function startBaselineTarget(ctx: BenchContext, world: World, tpl: MultipartTemplate, withWorker = false): Promise<CreateTarget> {
  const creds = await world.customer();
  const base = world.env();
  const proc = await startBenchScript("create-baseline", "bench/baselines/create-server.ts", {
    env: {
      NODE_ENV: "production",
      DATABASE_URL: base.DATABASE_URL!,
      REDIS_URL: base.REDIS_URL!,
      QUEUE_PREFIX: `${world.queuePrefix}-baseline`,
      STORAGE_DIR: path.join(world.dir, "baseline-files"),
      BASELINE_CUSTOMER_ID: String(creds.customerId),
      BASELINE_USER_ID: String(creds.userId),
      BASELINE_WORKER: withWorker ? "1" : "0",
    },
    cpuProfDir: ctx.profile.has("baseline") ? path.join(ctx.profDir, `baseline-${world.name}`) : undefined,
  });
  const url = new URL(`${proc.url}/create`);
  const headers = { "content-type": tpl.contentType, "content-length": tpl.contentLength };
  return target("baseline", proc, url, headers, tpl, benchAgent());
}

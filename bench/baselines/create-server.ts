import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import express from "express";
import type Multer from "multer";
import type { Pool as PgPool, PoolConfig } from "pg";
import type { Job, Worker as BullWorker, WorkerOptions } from "bullmq";
import { Producer, createRedis } from "@esign/queue";
import { requireFrom } from "../support/workspace-require";

/*
 * Baseline of the create scenario: the irreducible work of a create, nothing else. express + multer
 * parse the multipart body; each file is streamed to disk while it is hashed (SHA-256) and renamed
 * to its content address; the `data` part is JSON-parsed; ONE row is inserted (the same CreationJob
 * table, plain pg, one statement); ONE BullMQ job is enqueued (the same @esign/queue Producer the
 * gateway uses). No auth, no validation, no idempotency, no logging.
 *
 * With BASELINE_WORKER=1 it also runs the smallest possible consumer (one UPDATE marking the row
 * completed), the reference floor of the create -> completed scenario.
 */

const multer = requireFrom<typeof Multer>("services/api-gateway", "multer");
const { Pool } = requireFrom<{ Pool: new (c: PoolConfig) => PgPool }>("packages/db", "pg");
const { Worker } = requireFrom<{ Worker: new (name: string, fn: (job: Job) => Promise<unknown>, opts: WorkerOptions) => BullWorker }>(
  "packages/queue",
  "bullmq",
);

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
};

const root = env("STORAGE_DIR");
const staging = path.join(root, ".staging");
const customerId = Number(env("BASELINE_CUSTOMER_ID"));
const userId = Number(env("BASELINE_USER_ID"));
const pool = new Pool({ connectionString: env("DATABASE_URL"), max: 10 });
const redis = createRedis(env("REDIS_URL"), "producer");
const producer = new Producer(redis, env("QUEUE_PREFIX"));
const dirs = new Set<string>();

async function ensureDir(dir: string): Promise<void> {
  if (dirs.has(dir)) return;
  await mkdir(dir, { recursive: true });
  dirs.add(dir);
}

interface Stored {
  sha256: string;
  size: number;
}

const storage: Multer.StorageEngine = {
  _handleFile(_req, file, cb) {
    const tmp = path.join(staging, randomUUID());
    const hash = createHash("sha256");
    let size = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _e, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    ensureDir(staging)
      .then(() => pipeline(file.stream, tap, createWriteStream(tmp)))
      .then(async () => {
        const sha256 = hash.digest("hex");
        const dir = path.join(root, sha256.slice(0, 2), sha256.slice(2, 4));
        await ensureDir(dir);
        await rename(tmp, path.join(dir, sha256));
        cb(null, { size, sha256 } as Partial<Express.Multer.File> & Stored);
      })
      .catch((err: unknown) => {
        void rm(tmp, { force: true });
        cb(err as Error);
      });
  },
  _removeFile(_req, _file, cb) {
    cb(null);
  },
};

const upload = multer({ storage, limits: { fileSize: 50 * 1024 * 1024, files: 20 } }).array("files", 20);
const app = express();
app.disable("x-powered-by");
app.get("/healthz", (_req, res) => void res.json({ status: "ok" }));
app.post("/create", upload, async (req, res) => {
  try {
    const data = JSON.parse(String((req.body as { data?: string }).data)) as unknown;
    const files = (req.files as (Express.Multer.File & Stored)[]).map((f) => ({ name: f.originalname, sha256: f.sha256, size: f.size }));
    const payloadHash = createHash("sha256")
      .update(JSON.stringify([data, files]))
      .digest("hex");
    const id = randomUUID();
    await pool.query(
      `INSERT INTO "CreationJob" (id, "customerId", "userId", "payloadHash", payload, files, "updatedAt") VALUES ($1, $2, $3, $4, $5, $6, now())`,
      [id, customerId, userId, payloadHash, JSON.stringify((data as { caseFile?: unknown }).caseFile ?? data), JSON.stringify(files)],
    );
    await producer.enqueue("casefile", "create", { creationJobId: id }, { jobId: id });
    res.status(200).json({ jobs: [{ uuid: id, payloadHash }] });
  } catch (err) {
    res.status(500).json({ error: String(err) });
  }
});

let worker: BullWorker | undefined;
if (process.env.BASELINE_WORKER === "1") {
  worker = new Worker(
    "casefile",
    async (job: Job) => {
      await pool.query(`UPDATE "CreationJob" SET status = 'completed', "updatedAt" = now() WHERE id = $1`, [
        (job.data as { creationJobId: string }).creationJobId,
      ]);
    },
    { connection: createRedis(env("REDIS_URL"), "worker"), prefix: env("QUEUE_PREFIX"), concurrency: 4 },
  );
}

const server = app.listen(Number(env("PORT")), "127.0.0.1");
process.on("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  void Promise.all([worker?.close(), producer.close()]).then(async () => {
    redis.disconnect();
    await pool.end();
    process.exit(0);
  });
});

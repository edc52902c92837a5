import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { freePort } from './ports';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A throwaway PostgreSQL cluster for the collector suite (PAGEPULSE_TEST_ENGINE=postgres): Debian's
 * server binaries (/usr/lib/postgresql/N/bin, the `postgresql` package; scripts/ensure-browsers.mjs
 * installs it), a fresh data directory in the OS temp folder, a free port on 127.0.0.1 and the
 * socket in that directory, trust authentication (nothing but this machine can reach it), and no
 * fsync (a test database need not survive a power cut). As root it runs as the `postgres` user:
 * the server refuses to run as root.
 */
export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:PORT/postgres`: the maintenance database. */
  url: string;
  stop(): void;
}

/** The newest installed server's bin folder, or null. */
export function postgresBin(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0]!, 'bin') : null;
}

export async function startPostgres(): Promise<PostgresCluster> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed: run `node scripts/ensure-browsers.mjs postgres` (as root) first');
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'pagepulse-pg-'));
  const as = (command: string, args: string[]) =>
    root
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, command), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, command), args, { stdio: 'pipe' });
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  try {
    as('initdb', ['-A', 'trust', '-U', 'postgres', '--no-sync', '-D', data]);
    const settings = [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ');
    as('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'server.log'), '-w', 'start']);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${stderr}`);
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** BIGINT and NUMERIC as numbers, as the collector reads them (collector/server/sql.ts). */
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** A new, empty database in the cluster; returns its URL (one per test collector, so tests stay independent). */
export async function createDatabase(clusterUrl: string): Promise<string> {
  const name = `pagepulse_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: clusterUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Rows of one query on a database, numbers as numbers. */
export async function queryPostgres(url: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({ connectionString: url, types: TYPES });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Array<Record<string, unknown>>;
  } finally {
    await client.end();
  }
}

/**
 * Run one statement (`?` placeholders) for each list of values, in one transaction, sent in
 * multi-row batches: test data in bulk.
 */
export async function executePostgres(url: string, sql: string, rows: ReadonlyArray<readonly unknown[]>): Promise<void> {
  const client = new pg.Client({ connectionString: url, types: TYPES });
  await client.connect();
  try {
    await client.query('BEGIN');
    const values = /\bVALUES\s*(\(.*\))\s*$/is.exec(sql);
    if (!values) {
      for (const row of rows) {
        let n = 0;
        await client.query(
          sql.replace(/\?/g, () => `$${++n}`),
          row as unknown[],
        );
      }
    } else {
      const head = sql.slice(0, values.index);
      const width = (values[1]!.match(/\?/g) ?? []).length;
      const batch = Math.max(1, Math.floor(30_000 / Math.max(width, 1)));
      for (let i = 0; i < rows.length; i += batch) {
        const part = rows.slice(i, i + batch);
        let n = 0;
        const tuples = part.map(() => values[1]!.replace(/\?/g, () => `$${++n}`)).join(', ');
        await client.query(`${head}VALUES ${tuples}`, part.flat() as unknown[]);
      }
    }
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

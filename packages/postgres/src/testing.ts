import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A throwaway PostgreSQL server on loopback, for tests and benchmarks. */
export interface TestCluster {
  /** `postgresql://rag:<password>@127.0.0.1:<port>/rag`. */
  url: string;
  port: number;
  user: string;
  password: string;
  dataDir: string;
  /** Stops the server (fast shutdown) and deletes its files. */
  stop(): Promise<void>;
}

/** The folder of PostgreSQL's server programs (Debian keeps them under /usr/lib/postgresql/<version>/bin), or undefined. */
export function findPostgresBin(): string | undefined {
  const fromEnv = process.env.RAG_POSTGRES_BIN;
  if (fromEnv && existsSync(join(fromEnv, 'initdb'))) return fromEnv;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user. */
function asServerUser(bin: string, program: string, args: string[]): [string, string[]] {
  const path = join(bin, program);
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
}

async function runServerProgram(bin: string, program: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<void> {
  const [command, argv] = asServerUser(bin, program, args);
  await run(command, argv, { env: { ...process.env, ...env }, maxBuffer: 1 << 24 });
}

export interface StartClusterOptions {
  /** Start a streaming replica of this server (`pg_basebackup -R`) instead of a new primary. */
  replicaOf?: TestCluster;
}

/**
 * Starts a PostgreSQL server in a temporary folder on a free loopback port: user `rag` with
 * a password (scram-sha-256 over TCP), database `rag`, WAL ready for replicas; or a hot
 * standby of `replicaOf`. Throws when PostgreSQL's programs are not installed.
 */
export async function startTestCluster(options: StartClusterOptions = {}): Promise<TestCluster> {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin; Debian: apt-get install postgresql).');
  const root = await mkdtemp(join(tmpdir(), 'rag-pg-cluster-'));
  const dataDir = join(root, 'data');
  const user = 'rag';
  const password = options.replicaOf?.password ?? 'rag-test-secret';
  const port = await freePort();
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(root, Number(stdout.trim()), Number(gid.trim()));
  }
  await chmod(root, 0o700);
  if (options.replicaOf) {
    const primary = options.replicaOf;
    await runServerProgram(bin, 'pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', primary.user, '-D', dataDir, '-R', '-X', 'stream', '-c', 'fast'], { PGPASSWORD: primary.password });
  } else {
    const pwfile = join(root, 'pwfile');
    await writeFile(pwfile, password);
    if (process.getuid?.() === 0) await run('chown', ['postgres', pwfile]);
    await runServerProgram(bin, 'initdb', ['-D', dataDir, '-U', user, '--pwfile', pwfile, '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--no-instructions']);
    await rm(pwfile);
  }
  // Appended settings win over earlier ones; a replica gets its own port and socket folder.
  const conf = [
    `port = ${port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${root}'`,
    'wal_level = replica',
    'max_wal_senders = 4',
    'fsync = off',
    'synchronous_commit = off',
    'full_page_writes = off',
    '',
  ].join('\n');
  await appendFile(join(dataDir, 'postgresql.conf'), conf);
  await runServerProgram(bin, 'pg_ctl', ['-D', dataDir, '-l', join(root, 'server.log'), '-w', '-t', '120', 'start']);
  const stop = async (): Promise<void> => {
    await runServerProgram(bin, 'pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
    await rm(root, { recursive: true, force: true });
  };
  if (!options.replicaOf) {
    await runServerProgram(bin, 'psql', ['-h', root, '-p', String(port), '-U', user, '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-c', 'CREATE DATABASE rag']).catch(async (error: unknown) => {
      await stop();
      throw error;
    });
  }
  return { url: `postgresql://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/rag`, port, user, password, dataDir, stop };
}

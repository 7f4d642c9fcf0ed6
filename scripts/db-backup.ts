import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { loadConfig } from '../server/config.ts';

// npm run db:backup -- <file>: a consistent copy of the database named by DATABASE_URL, taken while the server runs.
// SQLite: better-sqlite3's online backup API (pages are copied in steps; writers are not blocked). PostgreSQL: the
// pg_dump command to run (pg_dump is PostgreSQL's own online backup; this script does not shell out with credentials).
const target = process.argv[2];
if (!target) {
  console.error('usage: npm run db:backup -- <backup file>');
  process.exit(2);
}
const url = loadConfig().databaseUrl;

if (/^postgres(ql)?:\/\//.test(url)) {
  console.log('PostgreSQL: back it up with pg_dump (online, consistent), e.g.');
  console.log(`  pg_dump --format=custom --file=${JSON.stringify(target)} "$DATABASE_URL"`);
  console.log('and restore into an empty database with');
  console.log(`  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" ${JSON.stringify(target)}`);
  process.exit(0);
}

const file = url.replace(/^sqlite:(\/\/)?/, '');
if (file === ':memory:' || !fs.existsSync(file)) {
  console.error(`no SQLite database file at ${file}`);
  process.exit(1);
}
if (fs.existsSync(target)) {
  console.error(`${target} exists already; choose a new file`);
  process.exit(1);
}
fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
const db = new SqliteDatabase(file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
try {
  const started = Date.now();
  const { totalPages } = await db.backup(target);
  console.log(`backed up ${path.resolve(file)} to ${path.resolve(target)}: ${totalPages} pages in ${Date.now() - started} ms`);
} finally {
  db.close();
}

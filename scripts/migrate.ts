// npm run db:migrate: bring the database named by DATABASE_URL up to date (npm start does this too).
import { loadConfig } from '../server/config.ts';
import { migrate, openDatabase } from '../server/db/database.ts';

const { db, close } = openDatabase(loadConfig().databaseUrl);
await migrate(db);
console.log('Database is up to date.');
await close();

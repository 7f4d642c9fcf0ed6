// npm run admin:create -- --email admin@example.com --password 'a-long-password' [--name 'Ada Admin']
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.ts';
import { migrate, openDatabase } from '../server/db/database.ts';
import { createSuperAdmin } from '../server/modules/users/admin.service.ts';
import { PASSWORD_MIN } from '../contract/plans.ts';

const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } } });
if (!values.email || !values.password) {
  console.error('usage: npm run admin:create -- --email EMAIL --password PASSWORD [--name NAME]');
  process.exit(2);
}
if (values.password.length < PASSWORD_MIN) {
  console.error(`The password must be at least ${PASSWORD_MIN} characters.`);
  process.exit(2);
}
const config = loadConfig();
const { db, close } = openDatabase(config.databaseUrl);
await migrate(db);
const result = await createSuperAdmin(db, { email: values.email, password: values.password, displayName: values.name });
console.log(`${result.created ? 'Created' : 'Promoted'} super admin ${values.email.toLowerCase()}`);
await close();

// Password hashing is infrastructure (server/lib/password.ts). This file only keeps the old import path working for
// the files that still use it (profile.service.ts, scripts/demo-seed.ts); delete it once they import the lib.
export { hashPassword, verifyPassword } from '../../lib/password.ts';

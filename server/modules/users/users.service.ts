// Accounts as the other modules use them: sign-in and registration (auth), invitations (members), the profile page,
// platform administration (system). The users module has no rules of its own beyond these queries and the pure
// presentation helpers, so its service is what its repository offers.
export {
  createUser,
  defaultDisplayName,
  deleteUser,
  findUserByEmail,
  findUserById,
  findUserByOidcSubject,
  linkOidcSubject,
  lockSuperAdmins,
  markEmailVerified,
  recordSignIn,
  setDisplayName,
  setPasswordHash,
  setUserRole,
  toPublicUser,
  unsafeCountUsers,
} from './users.repository.ts';

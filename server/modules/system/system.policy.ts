/** Pure rule for a role change or a deletion of `targetId` by `actorId`, given the super admins left. */
export function adminChangeRefusal(input: {
  actorId: string;
  targetId: string;
  targetIsSuperAdmin: boolean;
  action: 'demote' | 'delete';
  superAdminIds: string[];
}): 'self' | 'last' | null {
  if (input.actorId === input.targetId) return 'self';
  if (input.targetIsSuperAdmin && input.superAdminIds.filter((id) => id !== input.targetId).length === 0) return 'last';
  return null;
}

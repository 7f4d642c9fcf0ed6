import { z } from 'zod';
import { Email, Role } from './auth.ts';
import { requiredString } from './common.ts';

/** Texts of our own for System Administration (the spec is silent); server and client say the same thing. */
export const SYSTEM_MSG = {
  onlySuperAdmins: 'Only super admins can use System Administration',
  tenantNameRequired: 'Tenant name is required',
  planRequired: 'Please select a plan',
  unknownPlan: 'This plan does not exist',
  ownerNotFound: 'No user with this email exists',
  cannotDemoteSelf: 'You cannot remove your own super admin role',
  cannotDeleteSelf: 'You cannot delete your own account',
  lastSuperAdmin: 'The last super admin cannot be demoted or deleted',
  setPasswordSent: 'User added. They will receive an email to set their password.',
} as const;

/** The delete confirmation of spec section 2 (System Administration, Tenants). */
export const tenantDeleteConfirm = (name: string) => `Are you sure you want to delete ${name}? This action cannot be undone.`;
export const userDeleteConfirm = (email: string) => `Are you sure you want to delete ${email}? This action cannot be undone.`;

/** Alert priorities of spec section 9, highest first. */
export const ANALYTICS_PRIORITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export const ANALYTICS_DAYS = 30;

export const AdminListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  search: z.string().trim().max(100).optional(),
});
export type AdminListQuery = z.input<typeof AdminListQuery>;

export const AdminTenant = z
  .object({
    id: z.string(),
    name: z.string(),
    ownerId: z.string(),
    ownerEmail: z.string().nullable(),
    plan: z.string(),
    /** The plan's name, or null when the plan has been deleted since. */
    planName: z.string().nullable(),
    maxUsers: z.number().int(),
    maxClients: z.number().int(),
    features: z.array(z.string()),
    /** Active members. */
    userCount: z.number().int(),
    clientCount: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'AdminTenant' });
export type AdminTenant = z.infer<typeof AdminTenant>;

export const AdminTenantList = z.object({ items: z.array(AdminTenant), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });
export type AdminTenantList = z.infer<typeof AdminTenantList>;

export const CreateTenantBody = z.object({
  name: requiredString(SYSTEM_MSG.tenantNameRequired, 120),
  plan: requiredString(SYSTEM_MSG.planRequired, 100),
  /** Optional: an existing account that becomes the tenant's owner (the spec's tenants start with an empty owner). */
  ownerEmail: z
    .string()
    .trim()
    .max(254)
    .optional()
    .transform((s) => (s ? s.toLowerCase() : undefined)),
});
export type CreateTenantBody = z.input<typeof CreateTenantBody>;

export const UpdateTenantBody = z.object({
  name: requiredString(SYSTEM_MSG.tenantNameRequired, 120),
  plan: requiredString(SYSTEM_MSG.planRequired, 100),
});
export type UpdateTenantBody = z.input<typeof UpdateTenantBody>;

export const AdminUser = z
  .object({
    id: z.string(),
    email: z.string(),
    displayName: z.string(),
    role: Role,
    plan: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    lastSignInAt: z.string().nullable(),
    hasPassword: z.boolean(),
  })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof AdminUser>;

export const AdminUserList = z.object({ items: z.array(AdminUser), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });
export type AdminUserList = z.infer<typeof AdminUserList>;

export const CreateUserBody = z.object({
  email: Email,
  role: Role.default('user'),
  displayName: z.string().trim().max(120).optional(),
});
export type CreateUserBody = z.input<typeof CreateUserBody>;

export const UpdateUserBody = z.object({ role: Role });
export type UpdateUserBody = z.input<typeof UpdateUserBody>;

export const UserIdParam = z.object({ userId: z.string().min(1).max(100) });

export const PlatformAnalytics = z
  .object({
    totals: z.object({ tenants: z.number().int(), users: z.number().int(), clients: z.number().int(), alertsLast30Days: z.number().int() }),
    /** One entry per UTC day, oldest first, the last one being today; days without alerts count 0. */
    alertsPerDay: z.array(z.object({ date: z.string(), count: z.number().int() })),
    alertsByPriority: z.array(z.object({ priority: z.enum(ANALYTICS_PRIORITIES), count: z.number().int() })),
    tenantsByPlan: z.array(z.object({ plan: z.string(), planName: z.string().nullable(), count: z.number().int() })),
  })
  .meta({ id: 'PlatformAnalytics' });
export type PlatformAnalytics = z.infer<typeof PlatformAnalytics>;


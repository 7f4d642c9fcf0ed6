/** Plans, features and limits of spec section 9. */
export const FEATURE_IDS = [
  'basic_alerts',
  'email_notifications',
  'sms_notifications',
  'escalation_policies',
  'custom_integrations',
  'advanced_analytics',
  'white_labeling',
] as const;
export type FeatureId = (typeof FEATURE_IDS)[number];

export const FEATURE_NAMES: Record<FeatureId, { name: string; description: string }> = {
  basic_alerts: { name: 'Basic alerts', description: 'Receive, acknowledge and resolve alerts' },
  email_notifications: { name: 'Email notifications', description: 'Alert notifications by email' },
  sms_notifications: { name: 'SMS notifications', description: 'Alert notifications by text message' },
  escalation_policies: { name: 'Escalation policies', description: 'Escalate unanswered alerts along levels' },
  custom_integrations: { name: 'Custom integrations', description: 'Connect any monitoring tool' },
  advanced_analytics: { name: 'Advanced analytics', description: 'Response times and trends' },
  white_labeling: { name: 'White labeling', description: 'Your logo and your domain' },
};

export const PASSWORD_MIN = 6;
export const ACTIVE_ALERT_LIMIT = 100;
export const CLIENT_PAGE_SIZE = 10;
export const REGISTRATION_REDIRECT_MS = 1500;

export interface PlanPreset {
  id: string;
  name: string;
  description: string;
  price: string;
  maxUsers: number;
  maxClients: number;
  features: FeatureId[];
  isDefault: boolean;
  isPublic: boolean;
  sortOrder: number;
}

const starter: FeatureId[] = ['basic_alerts', 'email_notifications'];
const growth: FeatureId[] = [...starter, 'sms_notifications', 'escalation_policies'];
const scale: FeatureId[] = [...FEATURE_IDS];

export const DEFAULT_PLANS: PlanPreset[] = [
  { id: 'trial', name: 'Trial', description: 'Every feature, free for 14 days. No credit card required.', price: 'Free for 14 days', maxUsers: 5, maxClients: 10, features: [...FEATURE_IDS], isDefault: true, isPublic: true, sortOrder: 0 },
  { id: 'starter', name: 'Starter', description: 'For small teams getting started with alerting.', price: '$49/month', maxUsers: 5, maxClients: 10, features: starter, isDefault: false, isPublic: true, sortOrder: 1 },
  { id: 'growth', name: 'Growth', description: 'For growing MSPs with escalation needs.', price: '$99/month', maxUsers: 15, maxClients: 25, features: growth, isDefault: false, isPublic: true, sortOrder: 2 },
  { id: 'scale', name: 'Scale', description: 'Everything, for established MSPs.', price: '$199/month', maxUsers: 30, maxClients: 50, features: scale, isDefault: false, isPublic: true, sortOrder: 3 },
];

/** A plan's feature list as stored: every known feature, marked included or not. */
export function planFeatures(included: readonly string[]) {
  return FEATURE_IDS.map((id) => ({ id, ...FEATURE_NAMES[id], included: included.includes(id) }));
}

export const PRICING_SETTINGS_DEFAULTS = {
  currency: 'USD',
  billingCycle: 'monthly',
  showYearlyDiscount: true,
  yearlyDiscountPercentage: 15,
  taxRate: 0,
  taxInclusive: true,
} as const;

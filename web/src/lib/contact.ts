/** Where people write to us: the footers' Contact link and the privacy and terms pages. The one place to change it. */
export const SUPPORT_EMAIL = 'support@alertdesk.example';
export const SUPPORT_MAILTO = `mailto:${SUPPORT_EMAIL}`;

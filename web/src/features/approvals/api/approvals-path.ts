const tenantPath = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}`;

export const policiesPath = (tenantId: string) => `${tenantPath(tenantId)}/approvalPolicies`;
export const policyPath = (tenantId: string, policyId: string) => `${policiesPath(tenantId)}/${encodeURIComponent(policyId)}`;
export const requestsPath = (tenantId: string) => `${tenantPath(tenantId)}/approvalRequests`;
export const requestPath = (tenantId: string, requestId: string) => `${requestsPath(tenantId)}/${encodeURIComponent(requestId)}`;

/** Where an attachment downloads from: the browser follows it (a plain link), so it carries the /api prefix. */
export const attachmentUrl = (tenantId: string, requestId: string, attachmentId: string) =>
  `/api${requestPath(tenantId, requestId)}/attachments/${encodeURIComponent(attachmentId)}`;

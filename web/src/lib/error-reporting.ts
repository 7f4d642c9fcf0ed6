import type { ReportEvent } from '../../../contract/redaction.ts';

type Sentry = typeof import('@sentry/react');

/** Spec section 9: performance traces are sampled at 0.5. */
const TRACES_SAMPLE_RATE = 0.5;

let sentry: Promise<Sentry | null> | null = null;
/** Crashes before the server said whether to report (the first render can fail before /api/config answers). */
let early: Array<{ error: unknown; componentStack?: string }> | null = [];

/**
 * Starts error reporting when the server hands out a DSN (production mode with SENTRY_DSN_WEB or SENTRY_DSN; see
 * /api/config): only then is the SDK downloaded. Before an error event carrying an exception is sent, the user
 * feedback dialog opens (spec section 7). Page URLs with invitation, reset or acknowledge tokens are redacted.
 */
export function startErrorReporting(dsn: string | null) {
  if (sentry) return;
  if (!dsn) {
    early = null;
    return;
  }
  // The scrubbing code comes with the SDK: a page whose server hands out no DSN loads neither (issue 14's budgets).
  sentry = Promise.all([import('@sentry/react'), import('../../../contract/redaction.ts')])
    .then(([Sentry, { scrubReport }]) => {
      Sentry.init({
        dsn,
        environment: 'production',
        tracesSampleRate: TRACES_SAMPLE_RATE,
        integrations: [Sentry.browserTracingIntegration()],
        dataCollection: { userInfo: false, cookies: false, httpBodies: [] },
        // Whole transactions, so beforeSendTransaction sees (and scrubs) them with their spans.
        traceLifecycle: 'static',
        beforeSend(event) {
          if (event.exception) Sentry.showReportDialog({ eventId: event.event_id });
          return scrubReport(event as ReportEvent) as typeof event;
        },
        beforeSendTransaction: (event) => scrubReport(event as ReportEvent) as typeof event,
      });
      for (const crash of early ?? []) capture(Sentry, crash.error, crash.componentStack);
      early = null;
      return Sentry;
    })
    .catch((err: unknown) => {
      console.error('Error reporting could not start', err);
      early = null;
      return null;
    });
}

const capture = (Sentry: Sentry, error: unknown, componentStack?: string) =>
  Sentry.captureException(error, componentStack ? { contexts: { react: { componentStack } } } : undefined);

/** Reports a rendering crash (the crash fallback is showing), once error reporting has started, if it does. */
export function reportCrash(error: unknown, componentStack?: string) {
  if (sentry) void sentry.then((Sentry) => Sentry && capture(Sentry, error, componentStack));
  else early?.push({ error, componentStack });
}

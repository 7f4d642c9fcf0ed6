import { useEffect } from 'react';
import { Alert, Anchor, Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconLogin2 } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { SIGN_IN_LINK_MSG } from '../../../../../contract/messages.ts';
import { Loading } from '../../../components/Loading.tsx';
import { PublicCardPage } from '../../../components/PublicCardPage.tsx';
import { refusalReason } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { useSignInLinkPreview } from '../api/preview-sign-in-link.ts';
import { useSignInWithLink } from '../api/use-sign-in-link.ts';

/** How long "Signed in" shows before the dashboard opens. */
const REDIRECT_MS = 1500;

/**
 * /sign-in-link?token=…, the link of a sign-in email: asks "Sign in as …?" and signs in only when the button is
 * pressed (opening the link alone never uses it: mail scanners follow links).
 */
export function SignInLinkPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const link = useSignInLinkPreview(token);
  const use = useSignInWithLink();
  const navigate = useNavigate();

  // Signed in: the dashboard opens after a moment, long enough to read that it worked.
  useEffect(() => {
    if (!use.isSuccess) return;
    const timer = setTimeout(() => navigate('/app/dashboard', { replace: true }), REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [use.isSuccess, navigate]);

  // Used meanwhile (another tab) or expired while the page was open: final, unlike a failure to reach the server.
  const useRefused = use.isError ? refusalReason(use.error) : null;
  let body;
  if (!token) body = <Refused message={SIGN_IN_LINK_MSG.invalid} />;
  else if (link.isPending) body = <Loading />;
  else if (link.isError) {
    const reason = refusalReason(link.error);
    body = reason ? <Refused message={reason} /> : <Refused message="This page could not be loaded." onRetry={() => link.refetch()} />;
  } else if (useRefused) body = <Refused message={useRefused} />;
  else if (use.isSuccess)
    body = (
      <Stack align="center" ta="center" data-testid="sign-in-link-done">
        <ThemeIcon size={48} radius="xl" color="green" variant="light">
          <IconCheck />
        </ThemeIcon>
        <Title order={1} size="h3" className="wrap-anywhere">
          Signed in as {use.data.user.email}
        </Title>
        <Text c="dimmed" size="sm">
          Opening your dashboard…
        </Text>
        <Button component={Link} to="/app/dashboard" replace variant="light">
          Go to dashboard
        </Button>
      </Stack>
    );
  else {
    // The server could not be reached or failed: the link is still good, another press may pass.
    const failed = use.isError ? SIGN_IN_LINK_MSG.useFailed : null;
    body = (
      <Stack data-testid="sign-in-link-page">
        <Title order={1} size="h3" className="wrap-anywhere">
          Sign in as {link.data.email}?
        </Title>
        <Text c="dimmed" size="sm">
          This link works once, until {formatDateTime(link.data.expiresAt)}. No password is needed.
        </Text>
        {failed && (
          <Alert color="red" icon={<IconAlertTriangle />} role="alert">
            {failed}
          </Alert>
        )}
        <Button size="md" leftSection={<IconLogin2 size={18} />} loading={use.isPending} onClick={() => use.mutate(token)} fullWidth>
          Sign in
        </Button>
        <Anchor component={Link} to="/login" size="sm" ta="center">
          Not you? Back to sign in
        </Anchor>
      </Stack>
    );
  }

  return <PublicCardPage title="Sign in with a link">{body}</PublicCardPage>;
}

/** A link that cannot be used (unknown, used, expired), or a page that could not load (with a retry). */
function Refused({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <Stack align="center" ta="center" data-testid="sign-in-link-invalid">
      <ThemeIcon size={48} radius="xl" color="gray" variant="light">
        <IconAlertTriangle />
      </ThemeIcon>
      <Title order={1} size="h4">
        {message}
      </Title>
      {onRetry ? (
        <Button onClick={onRetry} variant="light">
          Retry
        </Button>
      ) : (
        <Button component={Link} to="/login" variant="light">
          Go to sign in
        </Button>
      )}
    </Stack>
  );
}

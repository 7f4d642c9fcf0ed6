import { Text } from '@mantine/core';
import { LegalPage, LegalSection, Point, Points, SupportEmail } from '../components/LegalPage.tsx';

/** /privacy: what Alertdesk stores and why, in plain words. Keep it true to what the server does. */
export function PrivacyPage() {
  return (
    <LegalPage title="Privacy" intro="What Alertdesk stores about you and your organization, why, and who can see it.">
      <LegalSection title="What we store">
        <Points>
          <Point>
            <b>Your account:</b> your name, your email address and a hash of your password (never the password itself). If you sign in with Google, the
            account identifier Google gives us instead. We note when you last signed in.
          </Point>
          <Point>
            <b>Your organization’s data:</b> its name and plan, its members, their roles and pending invitations, the clients you add and their contact
            details, integrations (whose keys we keep only as a hash), escalation policies, on-call schedules, and approval requests with their
            attachments.
          </Point>
          <Point>
            <b>Alerts:</b> what your monitoring tools send us (title, description, priority, tags and details), and what your team does with each alert:
            acknowledgements, assignments, notes, and the timeline of who was notified and when.
          </Point>
          <Point>
            <b>Notification preferences:</b> which channels (email, SMS, browser push) you want for which priorities, and your phone number if you turn on
            SMS.
          </Point>
          <Point>
            <b>Push subscriptions:</b> when you allow browser notifications, the address your browser’s push service gives us for your device, so we can
            reach it.
          </Point>
          <Point>
            <b>Session cookies:</b> one cookie, <code>alertdesk_session</code>, keeps you signed in for up to 30 days. We store only a hash of it, with the
            browser and network address it was created from. Your browser also remembers your theme and last organization on your device.
          </Point>
        </Points>
      </LegalSection>

      <LegalSection title="What we do not do">
        <Points>
          <Point>No third-party trackers, analytics or advertising scripts run on Alertdesk.</Point>
          <Point>We do not sell your data or use it for anything but running Alertdesk for you.</Point>
        </Points>
      </LegalSection>

      <LegalSection title="Who else sees it">
        <Points>
          <Point>Members of your organization see its data as their role allows. Other organizations never see it.</Point>
          <Point>Notifications go out through the email, SMS and browser push services that deliver them, with the alert’s title and priority.</Point>
          <Point>
            Error reporting only when it is configured: if this installation has an error reporting service set up, reports of crashes go there, with
            cookies, authorization headers, request bodies and secrets in addresses removed. Without it, no error report leaves the server.
          </Point>
        </Points>
      </LegalSection>

      <LegalSection title="Your choices">
        <Text size="sm">
          You can change your profile and notification preferences at any time. To get a copy of your data, or to have your account or your
          organization deleted, write to <SupportEmail />.
        </Text>
      </LegalSection>
    </LegalPage>
  );
}

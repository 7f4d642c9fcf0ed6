import { Text } from '@mantine/core';
import { LegalPage, LegalSection, Point, Points, SupportEmail } from '../components/LegalPage.tsx';

/** /terms: the terms of use of Alertdesk, in plain words. */
export function TermsPage() {
  return (
    <LegalPage title="Terms of use" intro="The rules for using Alertdesk, in plain language. By using Alertdesk you agree to them.">
      <LegalSection title="Your account">
        <Points>
          <Point>Give your real name and an email address you read. One account is for one person.</Point>
          <Point>Keep your password and your integration keys secret. Revoke a key as soon as you think it leaked.</Point>
          <Point>Owners and admins decide who joins their organization and what each member may do, and answer for what happens in it.</Point>
        </Points>
      </LegalSection>

      <LegalSection title="Your data">
        <Points>
          <Point>What you and your monitoring tools put into Alertdesk stays yours. We store and process it only to run the service for you.</Point>
          <Point>Only send us data you are allowed to share, and keep personal data in alerts to what your team needs to respond.</Point>
        </Points>
      </LegalSection>

      <LegalSection title="Fair use">
        <Points>
          <Point>Do not try to reach another organization’s data, get around your plan’s limits, or break or overload the service.</Point>
          <Point>Requests above the rate limits are refused for a while; plans limit how many users and clients an organization has.</Point>
        </Points>
      </LegalSection>

      <LegalSection title="Trial and plans">
        <Text size="sm">
          A new organization starts with a 14-day free trial, no credit card required. Prices and limits of each plan are shown on the home page.
        </Text>
      </LegalSection>

      <LegalSection title="Availability">
        <Points>
          <Point>
            We work to keep Alertdesk running and your notifications on time, but it is provided as it is, without a guarantee that it never fails.
          </Point>
          <Point>Email, SMS and push notifications depend on the services that deliver them. Do not make Alertdesk the only way you hear of an emergency.</Point>
        </Points>
      </LegalSection>

      <LegalSection title="Ending">
        <Text size="sm">
          You can stop using Alertdesk at any time and ask us to delete your data. We may suspend an account that breaks these terms, and tell you why.
          When these terms change, this page changes with them.
        </Text>
      </LegalSection>

      <LegalSection title="Questions">
        <Text size="sm">
          Write to <SupportEmail />.
        </Text>
      </LegalSection>
    </LegalPage>
  );
}

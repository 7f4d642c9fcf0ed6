import { Box } from '@mantine/core';
import { FeaturesSection } from '../components/FeaturesSection.tsx';
import { Hero } from '../components/Hero.tsx';
import { HomeFooter } from '../components/HomeFooter.tsx';
import { HomeHeader } from '../components/HomeHeader.tsx';
import { PricingSection } from '../components/PricingSection.tsx';
import { TestimonialsSection } from '../components/TestimonialsSection.tsx';
import { TrialSection } from '../components/TrialSection.tsx';
import { useDocumentTitle } from '../../../lib/document-title.ts';

/**
 * The marketing home page of spec section 1. Everything but the pricing cards is static, and the pricing section's
 * two requests (plans, settings) start together on first render: no waterfall.
 */
export function HomePage() {
  useDocumentTitle(null);
  return (
    <Box bg="var(--mantine-color-body)" mih="100vh">
      <HomeHeader />
      <main>
        <Hero />
        <FeaturesSection />
        <PricingSection />
        <TrialSection />
        <TestimonialsSection />
      </main>
      <HomeFooter />
    </Box>
  );
}

import type { Page } from './router.ts';
import { consentPage } from './pages/consent.tsx';
import { deliveriesPage } from './pages/deliveries.tsx';
import { moneyPage } from './pages/money.tsx';
import { onboardingPage } from './pages/onboarding.tsx';
import { sendPage } from './pages/send.tsx';
import { sendsPage } from './pages/sends.tsx';
import { templatesPage } from './pages/templates.tsx';
import { templatePerformancePage } from './pages/template-performance.tsx';

/**
 * Every page of the console, in the navigation's order; the first is where the console opens. A page is one
 * file of pages/ exporting its `Page`, added here with one line.
 */
export const pages: Page[] = [
  sendsPage,
  sendPage,
  moneyPage,
  templatesPage,
  templatePerformancePage,
  consentPage,
  deliveriesPage,
  onboardingPage,
];

import { walkJourneysIn } from './journeys';
import { chromium } from './puppeteer-engines';

walkJourneysIn(chromium);

import { walkJourneysIn } from './journeys';
import { firefox } from './puppeteer-engines';

walkJourneysIn(firefox);

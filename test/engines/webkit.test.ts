import { walkJourneysIn } from './journeys';
import { webkit } from './webkit-engine';

walkJourneysIn(webkit);

import { RateCards } from '../rate-card.ts';
import { META_2025_07_01 } from './meta-2025-07-01.ts';

/** Every rate card the service prices with, oldest first: a new card is a new file added here. */
export const rateCards = new RateCards([META_2025_07_01]);

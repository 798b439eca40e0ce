/*
 * The second half of the convergence property's chunks (3–5, seeds 4245–4247), in a file of its own
 * so a second worker runs them beside the first half (see convergenceChunks.ts).
 */
import { convergenceChunks } from './convergenceChunks.js';

convergenceChunks(3, 5);

// Bench-only page helpers: our selector and finder side by side on the same elements.
import { finder } from '@medv/finder';
import { selectorFor } from '../../src/tracker/selector';

(window as unknown as Record<string, unknown>).__benchSelectors = { ours: selectorFor, finder };

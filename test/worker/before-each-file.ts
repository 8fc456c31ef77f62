import { freshStorage } from './fresh-storage';

// Runs before each test file. The worker project shares one workerd per pool worker between
// files (isolate: false in vitest.config.ts), so each file starts from fresh storage and sees
// only its own writes.
await freshStorage();

import { freshStorage } from './fresh-storage';
import { watchLateWrites } from './late-writes';

// Runs before each test file. The worker project shares one workerd per pool worker between
// files (isolate: false in vitest.config.ts), so each file starts from fresh storage and sees
// only its own writes; a config write from an earlier file that lands in this one fails the test
// it lands in.
watchLateWrites();
await freshStorage();

import { env } from 'cloudflare:workers';
import { recordingQueue } from './collector/recording-queue';

// Runs before each file of the worker project. Its files share one workerd per pool worker
// (isolate: false in vitest.config.ts), and with it the real EVENTS_QUEUE, which delivers up to
// 5 s later (max_batch_timeout) to the consumer, into whichever file runs then: whatever a file
// sent through an env spread from this one (a purchase, a renewal, a cron's sweep) could land in
// the next file's EVENTS_DB, and one event row did (event-archive.test.ts counted it;
// events-cli.test.ts met archive objects so). Every app and handler a file builds from `env` now queues to a queue of
// its own, which nothing delivers. The real queue and its consumer are tested in a workerd of
// their own (real-queue.test.ts, the worker-apart project).
env.EVENTS_QUEUE = recordingQueue().queue;

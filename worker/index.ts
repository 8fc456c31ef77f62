import { createApp } from './app';

export { RateLimiter } from './api/rate-limiter';

export default createApp();

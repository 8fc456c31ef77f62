import after from './after.json';
import common from './common.json';
import consent from './consent.json';
import errors from './errors.json';
import i18n from './i18n.json';
import kit from './kit.json';
import landing from './landing.json';
import plans from './plans.json';
import searching from './searching.json';
import signup from './signup.json';
import subscriber from './subscriber.json';

/**
 * English, the default and fallback language (SPEC.md §9), is written in one file per area so
 * each part of the funnel owns its copy; every area file wraps its keys in its own name
 * (`landing.*`, `plans.*`; `errors.*` are the visitor-facing failure texts of
 * shared/api/error-text.ts), and `common` holds the keys the spec names (`continue`, ...).
 * `i18n` holds the shared plural patterns (`i18n.trial_days`, SPEC.md §9).
 */
export default {
  after,
  common,
  consent,
  errors,
  i18n,
  kit,
  landing,
  plans,
  searching,
  signup,
  subscriber,
};

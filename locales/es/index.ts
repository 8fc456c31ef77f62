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

/** Written from the English files (locales/en), area by area, with the same keys. */
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

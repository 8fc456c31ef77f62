import type { DevKit } from '../dev-kit';
import { developmentPortal, developmentPortalFor } from './embedded-portal';
import { developmentGeocoder } from './geocoder';
import { testGatewayFingerprint } from './test-card-fingerprint';
import { testGatewayRoutes } from './test-gateway-routes';

/** The development kit the development entry (worker/dev.ts) and the tests mount. */
export const developmentKit: DevKit = {
  portal: developmentPortal,
  portalFor: developmentPortalFor,
  geocode: developmentGeocoder,
  testGatewayRoutes,
  cardFingerprint: testGatewayFingerprint,
  provide() {
    // The kit it was called on: a test's kit made from this one with a part replaced.
    const kit = this;
    return async function provideDevKitMiddleware(c, next) {
      c.set('devKit', kit);
      await next();
    };
  },
};

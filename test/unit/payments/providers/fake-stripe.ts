import type {
  PaymentIntent,
  PaymentMethod,
  PaymentMethodResult,
  PaymentRequest,
  PaymentRequestPaymentMethodEvent,
  Stripe,
  StripeElements,
} from '@stripe/stripe-js';
import { vi } from 'vitest';
import type { StripeClient } from '../../../../islands/payments/providers/stripe';

/**
 * A Stripe.js stand-in with the SDK's own method shapes: results are typed PaymentMethodResult /
 * PaymentIntentResult. Elements and the payment request are recorded by small fakes, cast to
 * Stripe's (much larger, overloaded) interfaces at one place each.
 */

/** An Elements element: remembers its type, options, where it was mounted and its listeners. */
class FakeElement {
  mountedIn: HTMLElement | null = null;
  destroyed = false;
  readonly focus = vi.fn();
  private readonly handlers = new Map<string, ((event?: unknown) => void)[]>();
  constructor(
    readonly type: string,
    readonly options: Record<string, unknown>,
  ) {}
  mount(target: HTMLElement): void {
    this.mountedIn = target;
    // Stripe puts its iframe inside the slot (a div here: happy-dom does not load frames).
    const frame = document.createElement('div');
    frame.dataset.frame = this.type;
    target.appendChild(frame);
  }
  destroy(): void {
    this.destroyed = true;
  }
  on(type: string, handler: (event?: unknown) => void): this {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), handler]);
    return this;
  }
  /**
   * The visitor edits the field in Stripe's iframe; Elements tells what its check found, in
   * the shape of its change event (by default a value still incomplete).
   */
  change(
    event: { empty?: boolean; complete?: boolean; error?: { code: string; message: string } } = {},
  ): void {
    const full = { elementType: this.type, empty: false, complete: false, ...event };
    for (const handler of this.handlers.get('change') ?? []) handler(full);
  }
  /** The visitor leaves the field. */
  blur(): void {
    for (const handler of this.handlers.get('blur') ?? []) handler();
  }
}

/** The fields of a PaymentIntent the adapter reads; the rest of Stripe's object is not needed. */
export function paymentIntent(
  fields: Pick<PaymentIntent, 'id' | 'status'> & Partial<Pick<PaymentIntent, 'last_payment_error'>>,
): PaymentIntent {
  return { last_payment_error: null, ...fields } as PaymentIntent;
}

export function paymentMethod(id: string): PaymentMethod {
  return { id, type: 'card' } as PaymentMethod;
}

class FakePaymentRequest {
  readonly shown = vi.fn();
  private handlers = new Set<(event: PaymentRequestPaymentMethodEvent) => unknown>();
  constructor(private readonly available: WalletAnswer) {}
  canMakePayment(): Promise<Record<string, boolean> | null> {
    return Promise.resolve(this.available);
  }
  show(): void {
    this.shown();
  }
  on(type: string, handler: (event: PaymentRequestPaymentMethodEvent) => unknown): this {
    if (type === 'paymentmethod') this.handlers.add(handler);
    return this;
  }
  off(type: string, handler: (event: PaymentRequestPaymentMethodEvent) => unknown): this {
    if (type === 'paymentmethod') this.handlers.delete(handler);
    return this;
  }
  get listeners(): number {
    return this.handlers.size;
  }
  /** Every status the sheet was completed with, in order (Stripe expects exactly one). */
  readonly completions: string[] = [];
  /**
   * The browser's sheet handing over a payment method; resolves the status first given to
   * complete, as soon as it is given (the browser closes its sheet then).
   */
  async pay(paymentMethodId: string): Promise<string> {
    const completed = new Promise<string>((resolve) => {
      const event: PaymentRequestPaymentMethodEvent = {
        paymentMethod: paymentMethod(paymentMethodId),
        complete: (status) => {
          this.completions.push(status);
          resolve(status);
        },
        walletName: 'applePay',
        methodName: 'https://apple.com/apple-pay',
      };
      for (const handler of this.handlers) void handler(event);
    });
    return completed;
  }
}

/** What canMakePayment answers: at once, or when a promise the test holds settles. */
type WalletAnswer = Record<string, boolean> | null | Promise<Record<string, boolean> | null>;

export function fakeStripe(options: { canMakePayment?: WalletAnswer } = {}) {
  const elements: FakeElement[] = [];
  const elementsOptions: unknown[] = [];
  const paymentRequests: FakePaymentRequest[] = [];
  const stripe = {
    // `unknown` parameters: a mock of an overloaded method is typed by its last overload only.
    elements: vi.fn((elementsOption?: unknown): StripeElements => {
      elementsOptions.push(elementsOption);
      const group = {
        create: (type: string, elementOptions: Record<string, unknown>) => {
          const element = new FakeElement(type, elementOptions);
          elements.push(element);
          return element;
        },
      };
      return group as unknown as StripeElements;
    }),
    createPaymentMethod: vi.fn<(data: unknown) => Promise<PaymentMethodResult>>(),
    confirmCardPayment: vi.fn<Stripe['confirmCardPayment']>(),
    paymentRequest: vi.fn<Stripe['paymentRequest']>(() => {
      const request = new FakePaymentRequest(options.canMakePayment ?? null);
      paymentRequests.push(request);
      return request as unknown as PaymentRequest;
    }),
  } satisfies StripeClient;
  const loadStripe = vi.fn(async (_key: string): Promise<StripeClient | null> => stripe);
  return { stripe, loadStripe, elements, elementsOptions, paymentRequests };
}

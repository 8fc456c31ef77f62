/**
 * Offer pieces: the guarantee, the providers' logos, benefit and feature lists, the upsell badge,
 * the guide offer and Skip.
 */
export const OFFERS_CSS = `
.plan-guarantee{display:flex;align-items:center;gap:12px;margin:16px 0;padding:12px 16px;border-radius:12px;
  background:var(--surface)}
.plan-guarantee__badge{flex:none}
.plan-guarantee__title{margin:0;font-weight:700}
.plan-guarantee__text{margin:2px 0 0;font-size:13px;color:var(--muted)}
.payment-trust__providers{display:flex;flex-wrap:wrap;justify-content:center;gap:12px;margin:8px 0}
.plan-benefits{margin:0 0 16px;padding:0;list-style:none}
.plan-benefits__item{position:relative;margin:0 0 8px;padding-inline-start:28px}
.plan-benefits__item::before{content:'';position:absolute;inset-inline-start:2px;top:4px;width:14px;height:8px;
  border-inline-start:3px solid var(--brand);border-bottom:3px solid var(--brand);transform:rotate(-45deg)}
.plan-features{display:grid;gap:8px;margin:0 0 16px;padding:0;list-style:none}
.plan-features__item{display:flex;flex-direction:column;padding:12px 16px;border-radius:12px;background:var(--surface)}
.plan-features__title{font-weight:700}
.plan-features__text{font-size:14px;color:var(--muted)}
.features__users{margin:0 0 16px;font-weight:600;text-align:center}
.features__guarantee{margin:0;text-align:center;color:var(--muted)}
.upsell__badge{display:inline-block;margin:0;padding:4px 12px;border-radius:999px;background:var(--brand);
  color:var(--brand-ink);font-weight:700}
.guide-offer{margin:0 0 16px;padding:16px;border-radius:12px;background:var(--surface)}
.guide-offer__name{margin:0 0 4px;font-size:20px}
.guide-offer__description{margin:0 0 12px;color:var(--muted)}
.guide-offer__price{display:flex;flex-wrap:wrap;align-items:baseline;gap:8px;margin:0}
.guide-offer__regular{color:var(--muted)}
.guide-offer__total{font-size:28px}
.guide-offer__save{padding:2px 8px;border-radius:999px;background:var(--brand);color:var(--brand-ink);
  font-size:13px;font-weight:700}
.guide-offer__disclaimer{margin:8px 0 0;font-size:13px;color:var(--muted)}
.skip-form{margin:-12px 0 24px}
.skip-form__button{display:block;width:100%;min-height:44px;border:0;background:none;color:var(--muted);
  font:15px var(--font);text-decoration:underline;cursor:pointer}
`;

/**
 * The features screen's own layout from a tablet's 768 (two columns about a phone's width each)
 * and on a desktop: Continue under the heading (screens/kit/styles/bottom-button.ts), the list
 * under it across the page's width, in two columns on a tablet and three on a desktop (beside the
 * heading, in one or two, it ran half a screen and more past it). Only the features page carries
 * it (its definition's `css` in ../index.ts): the other money screens have no bottom button.
 */
export const FEATURES_WIDE_CSS = `
@media (min-width:768px){
.page:has(>.features>.plan-features){max-width:992px}
.features>.plan-features{grid-template-columns:repeat(2,minmax(0,1fr))}
.features>.bottom-button{justify-content:flex-start}
.features>.bottom-button>*{max-width:343px}
.features__users,.features__guarantee{text-align:start}
}
@media (min-width:992px){
.features>.plan-features{grid-template-columns:repeat(3,minmax(0,1fr))}
}`;

import BuildingStep from '../../islands/BuildingStep';

/** Islands of a quiz's question screens (see screens/islands.ts). */
export const QUIZ_ISLANDS = { BuildingStep } as const;

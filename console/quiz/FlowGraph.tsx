import type { FlowBranches } from '../../shared/quiz/branches';
import type { BranchCondition } from '../../shared/quiz/condition';

/**
 * A quiz flow drawn as a graph: its screens in order, a box each, a grey line from each to the
 * next (where a visitor goes when no rule leads elsewhere), and an arrow per rule from a question
 * to the screen it leads to, in a lane of its own on the right, with its condition beside the
 * question it leaves. A picture for the eye: the list beside it (FlowWalk) says the same to a
 * screen reader, so the drawing is hidden from one.
 */

const ROW = 56;
const BOX = { x: 8, width: 168, height: 32 };
const LANE = 18;
const TOP = 12;

interface Edge {
  from: number;
  to: number;
  label: string;
  /** Its place among the rules of the screen it leaves: its label's line there. */
  nth: number;
}

const middle = (index: number) => TOP + index * ROW + BOX.height / 2;
const RIGHT = BOX.x + BOX.width;

/** What a rule asks, in a few words: "who is child", "age 6–17", "otherwise". */
function conditionText(when: BranchCondition | null): string {
  if (when === null) return 'otherwise';
  if (when.test === 'equals') return `${when.key} is ${when.value}`;
  if (when.test === 'one_of') return `${when.key} is ${when.values.join(' or ')}`;
  return `${when.key} ${when.min}–${when.max}`;
}

/** Each rule of each question as an edge between screens of the flow; a screen not in it, none. */
function edgesOf(screens: readonly string[], branches: FlowBranches): Edge[] {
  return screens.flatMap((ref, from) => {
    const own = Object.hasOwn(branches, ref) ? branches[ref] : undefined;
    if (!own) return [];
    const rules = [
      ...own.branches.map((branch) => ({
        when: branch.when as BranchCondition,
        next: branch.next,
      })),
      ...(own.otherwise ? [{ when: null, next: own.otherwise }] : []),
    ];
    return rules.flatMap(({ when, next }, nth) => {
      const to = screens.indexOf(next);
      return to === -1 ? [] : [{ from, to, label: conditionText(when), nth }];
    });
  });
}

export function FlowGraph(props: { screens: readonly string[]; branches: FlowBranches }) {
  const { screens, branches } = props;
  const edges = edgesOf(screens, branches);
  const lanesEnd = RIGHT + LANE * (edges.length + 1);
  // A question whose rules all lead elsewhere with an otherwise has no line to the next screen.
  const leavesOnlyByRules = (ref: string) =>
    Object.hasOwn(branches, ref) && branches[ref]?.otherwise !== undefined;
  const width = lanesEnd + 240;
  const height = TOP * 2 + screens.length * ROW - (ROW - BOX.height);
  return (
    <svg
      className="quiz-graph"
      aria-hidden="true"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
    >
      <defs>
        <marker
          id="quiz-graph-arrow"
          viewBox="0 0 8 8"
          refX="8"
          refY="4"
          markerWidth="8"
          markerHeight="8"
          orient="auto"
        >
          <path d="M0,0 L8,4 L0,8 z" className="quiz-graph__head" />
        </marker>
      </defs>
      {screens.map((ref, index) =>
        index + 1 < screens.length && !leavesOnlyByRules(ref) ? (
          <line
            key={`next-${ref}`}
            className="quiz-graph__next"
            x1={BOX.x + BOX.width / 2}
            x2={BOX.x + BOX.width / 2}
            y1={TOP + index * ROW + BOX.height}
            y2={TOP + (index + 1) * ROW}
            markerEnd="url(#quiz-graph-arrow)"
          />
        ) : null,
      )}
      <RuleArrows edges={edges} screens={screens} labelsX={lanesEnd + 8} />
      {screens.map((ref, index) => (
        <g key={ref}>
          <rect
            className="quiz-graph__box"
            x={BOX.x}
            y={TOP + index * ROW}
            width={BOX.width}
            height={BOX.height}
            rx={6}
          />
          <text className="quiz-graph__name" x={BOX.x + 10} y={middle(index) + 5}>
            {ref}
          </text>
        </g>
      ))}
    </svg>
  );
}

/** Each rule as an arrow in a lane of its own, its condition on a line beside the screen it leaves. */
function RuleArrows(props: {
  edges: readonly Edge[];
  screens: readonly string[];
  labelsX: number;
}) {
  return props.edges.map((edge, lane) => {
    const x = RIGHT + LANE * (lane + 1);
    const y1 = middle(edge.from) - 6 + 6 * Math.min(edge.nth, 2);
    const y2 = middle(edge.to) + 4;
    return (
      <g key={`${edge.from}-${edge.to}-${edge.label}`}>
        <path
          className="quiz-graph__rule"
          d={`M${RIGHT},${y1} H${x} V${y2} H${RIGHT + 2}`}
          markerEnd="url(#quiz-graph-arrow)"
        />
        <text
          className="quiz-graph__label"
          x={props.labelsX}
          y={middle(edge.from) - 8 + 14 * edge.nth}
        >
          {edge.label} → {props.screens[edge.to]}
        </text>
      </g>
    );
  });
}

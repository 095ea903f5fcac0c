export { checkLayout, parseDiagram, type LayoutProblem } from './check-layout.js';

// Where things go on the map, in SVG user units. One cell is 42 × 50: a 12-unit band on top for
// a planet's name, then the unit. The whole map is about 1,050 units wide, drawn MAP_PNG_WIDTH px
// wide in the PNG and scaled to the screen on the web page (the SVG has a viewBox and no fixed style).
import type { Board, CellIndex } from '../adjudicator/map.ts';

export const CELL_W = 42;
export const CELL_H = 50;
/** The top of a cell, where a planet's name goes. */
export const BAND = 12;
/** Radius of a unit's disc. */
export const UNIT_R = 16;
/** Outer padding, and the margin that holds the column letters and row numbers. */
export const PAD = 16;
export const MARGIN = 28;
export const TITLE_H = 84;

export class Layout {
  readonly boardX: number;
  readonly boardY: number;
  readonly boardW: number;
  readonly boardH: number;
  readonly width: number;
  /** Where the legend starts. */
  readonly legendY: number;

  constructor(readonly board: Board) {
    this.boardX = PAD + MARGIN;
    this.boardY = TITLE_H + MARGIN;
    this.boardW = board.cols * CELL_W;
    this.boardH = board.rows * CELL_H;
    this.width = 2 * (PAD + MARGIN) + this.boardW;
    this.legendY = this.boardY + this.boardH + MARGIN + 12;
  }

  /** Top-left corner of a cell. */
  cellX(i: CellIndex): number {
    return this.boardX + this.board.col(i) * CELL_W;
  }
  cellY(i: CellIndex): number {
    return this.boardY + this.board.row(i) * CELL_H;
  }
  /** Centre of the unit on a cell. */
  unitX(i: CellIndex): number {
    return this.cellX(i) + CELL_W / 2;
  }
  unitY(i: CellIndex): number {
    return this.cellY(i) + BAND + (CELL_H - BAND) / 2;
  }
}

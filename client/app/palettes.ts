import type { MantineColorsTuple } from '@mantine/core';

/**
 * Every palette of the theme (./theme.ts): Mantine's defaults and the brand's (a deep indigo: shade 8
 * is 6.5:1 on white, shade 9 is 8:1 on white and 6.3:1 on shade 1), with the filled shade (8) and
 * shade 9 darkened, only as far as needed, where white text on them or shade 9 on shades 1 and 2 falls
 * short of 4.6:1 (AA's 4.5 with a margin; teal, green, cyan, orange, lime and yellow do; red's 4.51:1
 * has no margin). Any colour is then safe in the filled, light, subtle and outline variants.
 * Written out rather than worked out as each page starts (milliseconds of every first paint on a
 * phone): theme.test.ts works them out again from Mantine's defaults and fails when they differ,
 * e.g. after a Mantine upgrade changes a default colour.
 */
export const PALETTES: Record<string, MantineColorsTuple> = {
  dark: ['#C9C9C9', '#b8b8b8', '#828282', '#696969', '#424242', '#3b3b3b', '#2e2e2e', '#242424', '#1f1f1f', '#141414'],
  gray: ['#f8f9fa', '#f1f3f5', '#e9ecef', '#dee2e6', '#ced4da', '#adb5bd', '#868e96', '#495057', '#343a40', '#212529'],
  red: ['#fff5f5', '#ffe3e3', '#ffc9c9', '#ffa8a8', '#ff8787', '#ff6b6b', '#fa5252', '#f03e3e', '#dc3030', '#ad2424'],
  pink: ['#fff0f6', '#ffdeeb', '#fcc2d7', '#faa2c1', '#f783ac', '#f06595', '#e64980', '#d6336c', '#c2255c', '#a61e4d'],
  grape: ['#f8f0fc', '#f3d9fa', '#eebefa', '#e599f7', '#da77f2', '#cc5de8', '#be4bdb', '#ae3ec9', '#9c36b5', '#862e9c'],
  violet: [
    '#f3f0ff',
    '#e5dbff',
    '#d0bfff',
    '#b197fc',
    '#9775fa',
    '#845ef7',
    '#7950f2',
    '#7048e8',
    '#6741d9',
    '#5939b8',
  ],
  indigo: [
    '#edf2ff',
    '#dbe4ff',
    '#bac8ff',
    '#91a7ff',
    '#748ffc',
    '#5c7cfa',
    '#4c6ef5',
    '#4263eb',
    '#3b5bdb',
    '#3249b7',
  ],
  blue: ['#e7f5ff', '#d0ebff', '#a5d8ff', '#74c0fc', '#4dabf7', '#339af0', '#228be6', '#1c7ed6', '#1971c2', '#165a9a'],
  cyan: ['#e3fafc', '#c5f6fa', '#99e9f2', '#66d9e8', '#3bc9db', '#22b8cf', '#15aabf', '#1098ad', '#0c8093', '#0a697a'],
  teal: ['#e6fcf5', '#c3fae8', '#96f2d7', '#63e6be', '#38d9a9', '#20c997', '#12b886', '#0ca678', '#08835e', '#077050'],
  green: ['#ebfbee', '#d3f9d8', '#b2f2bb', '#8ce99a', '#69db7c', '#51cf66', '#40c057', '#37b24d', '#278539', '#237133'],
  lime: ['#f4fce3', '#e9fac8', '#d8f5a2', '#c0eb75', '#a9e34b', '#94d82d', '#82c91e', '#74b816', '#4e800b', '#48730a'],
  yellow: [
    '#fff9db',
    '#fff3bf',
    '#ffec99',
    '#ffe066',
    '#ffd43b',
    '#fcc419',
    '#fab005',
    '#f59f00',
    '#a86200',
    '#a15300',
  ],
  orange: [
    '#fff4e6',
    '#ffe8cc',
    '#ffd8a8',
    '#ffc078',
    '#ffa94d',
    '#ff922b',
    '#fd7e14',
    '#f76707',
    '#c84d0a',
    '#a9380c',
  ],
  brand: ['#eef1ff', '#dde3ff', '#bcc7fd', '#95a5f9', '#7185f4', '#5a6ef0', '#4a5de6', '#4356dc', '#3d4fd1', '#3443b6'],
};

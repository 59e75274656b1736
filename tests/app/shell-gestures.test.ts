import { describe, expect, it } from 'vitest';
import { safeResumePath } from '../../src/app/resume-path.ts';
import { opensMenu } from '../../src/components/shell/edge-swipe.ts';
import {
  IOS_TRANSITION_MS,
  parseMotionStyle,
  platformMotionStyle,
  transitionMs,
} from '../../src/components/shell/motion.ts';

describe('edge swipe', () => {
  it('opens the menu once a swipe from the left edge passes 10 px', () => {
    expect(opensMenu({ x: 2, y: 300 }, { x: 13, y: 301 })).toBe(true);
    expect(opensMenu({ x: 2, y: 300 }, { x: 12, y: 301 })).toBe(false);
  });

  it('ignores swipes that start away from the edge or mostly scroll', () => {
    expect(opensMenu({ x: 120, y: 300 }, { x: 200, y: 300 })).toBe(false);
    expect(opensMenu({ x: 2, y: 300 }, { x: 20, y: 360 })).toBe(false);
  });
});

describe('page transitions', () => {
  it('lasts 540 ms in iOS style and 200–280 ms in Material style', () => {
    expect(transitionMs('ios', false)).toBe(IOS_TRANSITION_MS);
    expect(IOS_TRANSITION_MS).toBe(540);
    const material = transitionMs('material', false);
    expect(material).toBeGreaterThanOrEqual(200);
    expect(material).toBeLessThanOrEqual(280);
  });

  it('turns motion off when the user prefers reduced motion', () => {
    expect(transitionMs('ios', true)).toBe(0);
    expect(transitionMs('material', true)).toBe(0);
  });

  it('picks iOS style on iPhone and iPadOS, Material elsewhere', () => {
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)';
    const mac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)';
    expect(platformMotionStyle({ userAgent: iphone, maxTouchPoints: 5 })).toBe('ios');
    expect(platformMotionStyle({ userAgent: mac, maxTouchPoints: 5 })).toBe('ios');
    expect(platformMotionStyle({ userAgent: mac, maxTouchPoints: 0 })).toBe('material');
    expect(platformMotionStyle({ userAgent: 'Mozilla/5.0 (Linux; Android 14)', maxTouchPoints: 5 })).toBe(
      'material',
    );
  });

  it('reads only known settings back from storage', () => {
    expect(parseMotionStyle('ios')).toBe('ios');
    expect(parseMotionStyle('fancy')).toBeNull();
    expect(parseMotionStyle(null)).toBeNull();
  });
});

describe('resume path after sign-in', () => {
  it.each([
    ['/sites-list?page=2#top', '/sites-list?page=2#top'],
    ['//evil.example/', '/landing'],
    ['/\\evil.example', '/landing'],
    ['https://evil.example/', '/landing'],
    ['sites-list', '/landing'],
    ['/login', '/landing'],
    [null, '/landing'],
  ])('resumes %s as %s', (stored, expected) => {
    expect(safeResumePath(stored)).toBe(expected);
  });
});

import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { crownCentre, demoPanoramicXray, demoSmilePhoto } from "./images";

describe("the demo patient's images", () => {
  it("her panoramic radiograph shows 31 teeth and a gap where the 36 was extracted, on a 1400 × 640 film", async () => {
    const png = await demoPanoramicXray([36]);
    const { data, info } = await sharp(png)
      .removeAlpha()
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([1400, 640, 1]);
    // The brightest point around the crown's point (the film is blurred a little).
    const brightest = (pixels: Buffer, n: number) => {
      const { x, y } = crownCentre(n);
      let max = 0;
      for (let dy = -10; dy <= 10; dy++)
        for (let dx = -10; dx <= 10; dx++)
          max = Math.max(max, pixels[(Math.round(y) + dy) * info.width + Math.round(x) + dx] ?? 0);
      return max;
    };
    const grey = (n: number) => brightest(data, n);
    for (const n of [11, 18, 26, 28, 31, 35, 37, 38, 46, 48]) expect(grey(n), String(n)).toBeGreaterThan(170);
    expect(grey(36)).toBeLessThan(110);
    // Drawn whole, the 36 is there like its neighbours.
    const whole = await sharp(await demoPanoramicXray([]))
      .greyscale()
      .raw()
      .toBuffer();
    const { x, y } = crownCentre(36);
    expect(whole[Math.round(y) * info.width + Math.round(x)]).toBeGreaterThan(170);
  });

  it("and her smile: a 900 × 520 photo, her upper central incisors where the mouth opens", async () => {
    const { data, info } = await sharp(await demoSmilePhoto())
      .removeAlpha()
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([900, 520, 1]);
    const at = (x: number, y: number) => data[y * info.width + x] ?? 0;
    // 11 and 21 either side of the middle, white; the skin around the mouth, darker.
    expect(at(415, 235)).toBeGreaterThan(220);
    expect(at(485, 235)).toBeGreaterThan(220);
    expect(at(450, 60)).toBeLessThan(210);
  });
});

//! Writes benchmark images: `gen_image OUT.(png|jpg|gif|webp) WIDTH HEIGHT [photo|noise|screen]`.
//! A "photo" is smooth gradients with a little grain, a "screen" flat panels and text-like
//! strokes, "noise" random bytes (what compresses worst).

use image::{ImageFormat, Rgb, RgbImage};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [out, w, h, rest @ ..] = &args[..] else {
        panic!("usage: gen_image OUT WIDTH HEIGHT [photo|noise|screen]");
    };
    let (w, h): (u32, u32) = (w.parse().unwrap(), h.parse().unwrap());
    let style = rest.first().map_or("photo", String::as_str);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut rng = move || {
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        seed.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let img = RgbImage::from_fn(w, h, |x, y| {
        let r = rng();
        match style {
            "noise" => Rgb([r as u8, (r >> 8) as u8, (r >> 16) as u8]),
            "screen" => {
                let panel = ((x / 400) + (y / 300)) % 3;
                let stroke = (y % 24 < 14) && (x % 9 < 5) && ((x / 60 + y / 24) % 5 != 0);
                if stroke {
                    Rgb([30, 30, 30])
                } else {
                    [
                        Rgb([250, 250, 250]),
                        Rgb([230, 236, 245]),
                        Rgb([40, 44, 52]),
                    ][panel as usize]
                }
            }
            _ => {
                let grain = (r % 9) as f32 - 4.0;
                let fx = x as f32 / w as f32;
                let fy = y as f32 / h as f32;
                let v = |a: f32| (a * 255.0 + grain).clamp(0.0, 255.0) as u8;
                Rgb([
                    v(0.5 + 0.5 * (fx * 7.0).sin() * (fy * 3.0).cos()),
                    v(fy),
                    v(0.5 + 0.4 * ((fx + fy) * 11.0).sin()),
                ])
            }
        }
    });
    let format = ImageFormat::from_path(out).unwrap();
    if format == ImageFormat::Gif {
        image::DynamicImage::ImageRgb8(img)
            .to_rgba8()
            .save(out)
            .unwrap();
    } else {
        img.save_with_format(out, format).unwrap();
    }
}

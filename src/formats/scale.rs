//! Large images for the MCP server (SPEC §16): scaled down to a longer side of 1568 pixels
//! and at most 5 MiB before they are sent, refused past 100 megapixels or 64 MiB.

use std::io::Cursor;

use fast_image_resize::{FilterType, MulDiv, ResizeAlg, ResizeOptions, Resizer};
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::{CompressionType, FilterType as PngFilter, PngEncoder};
use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder, ImageError, ImageFormat, ImageReader, Limits};

/// The longer side an image is scaled to (what vision models take in without scaling).
pub const MAX_SIDE: u32 = 1568;

/// The largest image sent: larger files are scaled even when small in pixels.
pub const MAX_SENT_BYTES: u64 = 5 << 20;

/// Images with more pixels than this are refused, from their header.
pub const MAX_PIXELS: u64 = 100_000_000;

/// Image files larger than this are refused, before any decoding.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// The most rows decoded, 1,000,000: decoding and scaling cost by the row as well as by
/// the pixel (a PNG of 1 x 100,000,000 pixels, 194 KB, took 5.8 GB and 17-33 s for an
/// answer of 1 x 1568). JPEG and GIF stop at 65,535 rows themselves, WebP lower; a row
/// may be as long as the pixel bound allows.
pub const MAX_DECODED_SIDE: u32 = 1_000_000;

/// The most a decode may hold: the pixels of any 8-bit RGBA image of 100 megapixels
/// (400 MB), what the pixel bound implies (16-bit images count twice). A progressive JPEG holds two bytes of
/// coefficients per sample besides its pixels, so it counts three times its pixels' bytes.
/// Alpha is premultiplied in place (not in a copy) for resizing, so with the file (64 MiB)
/// and the resizer's rows a decode stays near 420 MiB, and two at once under 1 GiB.
pub const MAX_DECODED_BYTES: u64 = 4 * MAX_PIXELS;

/// What a decoder may allocate beside the decoded pixels (PNG chunks, a GIF frame): the
/// pixels are bounded by `MAX_PIXELS`, this by a constant.
const DECODER_WORKING_BYTES: u64 = 64 << 20;

/// JPEG quality for a scaled JPEG: visually close to the source at a fraction of its size.
const JPEG_QUALITY: u8 = 85;

/// The four image formats an MCP host shows, as recognised from their first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    Png,
    Jpeg,
    Gif,
    Webp,
}

/// An image re-encoded to be sent in place of its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scaled {
    pub bytes: Vec<u8>,
    /// `image/png` or `image/jpeg`.
    pub mime_type: &'static str,
    pub width: u32,
    pub height: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScaleError {
    /// Over 100 megapixels or over 64 MiB (SIZE_LIMIT_EXCEEDED): decided from the header,
    /// before any pixel is decoded; also a decoder that asked for more than its limits.
    TooLarge,
    /// The bytes do not decode as the kind they start like; the decoder's message.
    Undecodable(String),
}

impl std::fmt::Display for ScaleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScaleError::TooLarge => write!(
                f,
                "the image is larger than {MAX_PIXELS} pixels or {MAX_FILE_BYTES} bytes"
            ),
            ScaleError::Undecodable(why) => write!(f, "the image cannot be decoded: {why}"),
        }
    }
}

impl std::error::Error for ScaleError {}

/// Held while an image is decoded and scaled.
static DECODING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The image to send in place of `bytes`, or None when the file is sent as it is.
///
/// `width` and `height` are the header's (as the caller read them to describe the image). An
/// image whose longer side exceeds [`MAX_SIDE`] is scaled to a longer side of [`MAX_SIDE`],
/// the shorter side rounded to the nearest pixel (at least 1). One whose file exceeds
/// [`MAX_SENT_BYTES`] is re-encoded too, at its own size if that is already within
/// [`MAX_SIDE`]. Whenever an encoding is still over [`MAX_SENT_BYTES`] (noise, photos saved
/// as PNG), the image is scaled further until it fits. The result is PNG, or JPEG for a JPEG
/// source; 8 bits per channel, alpha kept, EXIF orientation applied (re-encoding drops the
/// EXIF that told viewers to rotate); a GIF gives its first frame.
pub fn scale_if_needed(
    bytes: &[u8],
    kind: Codec,
    width: u32,
    height: u32,
) -> Result<Option<Scaled>, ScaleError> {
    if bytes.len() as u64 > MAX_FILE_BYTES
        || pixels(width, height) > MAX_PIXELS
        || height > MAX_DECODED_SIDE
    {
        return Err(ScaleError::TooLarge);
    }
    if width.max(height) <= MAX_SIDE && bytes.len() as u64 <= MAX_SENT_BYTES {
        return Ok(None);
    }
    // One image is decoded and scaled at a time in a process: the MCP server answers
    // calls in parallel, and six 7000x7000 16-bit PNGs of 381 KB each at once held 995 MB.
    let _one = DECODING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut image = decode(bytes, kind)?;
    let jpeg = kind == Codec::Jpeg;
    let (width, height) = (image.width(), image.height());
    let mut resizer = Resizer::new();
    // Alpha is premultiplied once, in place, before the first resize (the resizer would
    // otherwise premultiply a copy of the whole image each time).
    let mut premultiplied = false;
    let mut side = MAX_SIDE;
    loop {
        let (sent_width, sent_height) = fit(width, height, side);
        let converted = if (sent_width, sent_height) == (width, height) {
            // Over 5 MiB but small enough in pixels: re-encoded at its own size first.
            to_8_bit(&image, jpeg)
        } else {
            if !premultiplied && image.color().has_alpha() {
                premultiplied = MulDiv::new().multiply_alpha_inplace(&mut image).is_ok();
            }
            Some(resize(
                &mut resizer,
                &image,
                (sent_width, sent_height),
                jpeg,
                premultiplied,
            )?)
        };
        let shown = converted.as_ref().unwrap_or(&image);
        let (bytes, as_jpeg) = smaller_encoding(shown, jpeg)?;
        let size = bytes.len() as u64;
        let longer = sent_width.max(sent_height);
        if size <= MAX_SENT_BYTES || longer <= 1 {
            return Ok(Some(Scaled {
                bytes,
                mime_type: if as_jpeg { "image/jpeg" } else { "image/png" },
                width: sent_width,
                height: sent_height,
            }));
        }
        // Encoded size grows with the pixel count, so scale the sides by the square root of
        // the excess, and a tenth more so that one more try is nearly always the last.
        let factor = (MAX_SENT_BYTES as f64 / size as f64).sqrt() * 0.9;
        side = ((f64::from(longer) * factor) as u32).clamp(1, longer - 1);
    }
}

/// `width` x `height` (the stored image's) as the image is shown: sides swapped when its
/// EXIF orientation turns it a quarter. Only the headers are read.
pub fn as_shown(bytes: &[u8], kind: Codec, width: u64, height: u64) -> (u64, u64) {
    let mut limits = Limits::default();
    limits.max_alloc = Some(DECODER_WORKING_BYTES);
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format_of(kind));
    reader.limits(limits);
    let turned = kind != Codec::Gif
        && reader
            .into_decoder()
            .ok()
            .and_then(|mut decoder| decoder.orientation().ok())
            .is_some_and(|orientation| {
                matches!(
                    orientation,
                    Orientation::Rotate90
                        | Orientation::Rotate270
                        | Orientation::Rotate90FlipH
                        | Orientation::Rotate270FlipH
                )
            });
    match turned {
        true => (height, width),
        false => (width, height),
    }
}

fn format_of(kind: Codec) -> ImageFormat {
    match kind {
        Codec::Png => ImageFormat::Png,
        Codec::Jpeg => ImageFormat::Jpeg,
        Codec::Gif => ImageFormat::Gif,
        Codec::Webp => ImageFormat::WebP,
    }
}

fn pixels(width: u32, height: u32) -> u64 {
    u64::from(width) * u64::from(height)
}

/// The size with a longer side of `side`, proportions kept, the shorter side rounded to the
/// nearest pixel and at least 1; a smaller image keeps its size (never enlarged).
fn fit(width: u32, height: u32, side: u32) -> (u32, u32) {
    let longer = width.max(height);
    if longer <= side {
        return (width, height);
    }
    let shorter = |s: u32| {
        let scaled = (u64::from(s) * u64::from(side) + u64::from(longer) / 2) / u64::from(longer);
        (scaled as u32).max(1)
    };
    if width >= height {
        (side, shorter(height))
    } else {
        (shorter(width), side)
    }
}

/// Decodes with the memory the pixel bound allows. The decoder's own header is checked
/// against `MAX_PIXELS` again (it, not the caller's reading, decides what is allocated);
/// the decoded pixels (at most `MAX_PIXELS` x 8 bytes, for 16-bit RGBA) are reserved from
/// `image::Limits`, and the decoder gets `DECODER_WORKING_BYTES` more for its own buffers
/// (PNG text and ICC chunks, which a zlib bomb could otherwise inflate; a GIF frame).
/// Decoders whose buffers `Limits` does not govern keep them proportional to the pixels:
/// a progressive JPEG holds 2 bytes a sample of coefficients, lossless WebP 4 bytes a pixel.
fn decode(bytes: &[u8], kind: Codec) -> Result<DynamicImage, ScaleError> {
    let format = format_of(kind);
    let mut limits = Limits::default();
    limits.max_alloc = Some(DECODER_WORKING_BYTES);
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(undecodable)?;
    let (width, height) = decoder.dimensions();
    let held = match kind == Codec::Jpeg && progressive(bytes) {
        true => decoder.total_bytes().saturating_mul(3),
        false => decoder.total_bytes(),
    };
    if pixels(width, height) > MAX_PIXELS || height > MAX_DECODED_SIDE || held > MAX_DECODED_BYTES {
        return Err(ScaleError::TooLarge);
    }
    let mut limits = Limits::default();
    limits.max_alloc = Some(decoder.total_bytes().saturating_add(DECODER_WORKING_BYTES));
    limits.reserve(decoder.total_bytes()).map_err(undecodable)?;
    decoder.set_limits(limits).map_err(undecodable)?;
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut image = DynamicImage::from_decoder(decoder).map_err(undecodable)?;
    image.apply_orientation(orientation);
    Ok(image)
}

/// Whether a JPEG's frame is progressive (SOF2, SOF6, SOF10 or SOF14): its segments are
/// walked to the first frame header.
fn progressive(bytes: &[u8]) -> bool {
    let mut at = 2;
    while let (Some(&0xFF), Some(&marker)) = (bytes.get(at), bytes.get(at + 1)) {
        match marker {
            // Fill bytes before a marker.
            0xFF => at += 1,
            0xC0..=0xCF if !matches!(marker, 0xC4 | 0xC8 | 0xCC) => {
                return matches!(marker, 0xC2 | 0xC6 | 0xCA | 0xCE);
            }
            _ => {
                let Some(len) = bytes.get(at + 2..at + 4) else {
                    return false;
                };
                at += 2 + usize::from(u16::from_be_bytes([len[0], len[1]]));
            }
        }
    }
    false
}

fn undecodable(error: ImageError) -> ScaleError {
    match error {
        ImageError::Limits(_) => ScaleError::TooLarge,
        other => ScaleError::Undecodable(other.to_string()),
    }
}

/// The image at 8 bits per channel (what PNG viewers and JPEG take; JPEG has no alpha), or
/// None when it is so already.
fn to_8_bit(image: &DynamicImage, jpeg: bool) -> Option<DynamicImage> {
    let grey = !image.color().has_color();
    let alpha = image.color().has_alpha() && !jpeg;
    Some(match (image, grey, alpha) {
        (DynamicImage::ImageLuma8(_) | DynamicImage::ImageRgb8(_), _, _)
        | (DynamicImage::ImageLumaA8(_) | DynamicImage::ImageRgba8(_), _, true) => return None,
        (_, true, false) => DynamicImage::ImageLuma8(image.to_luma8()),
        (_, true, true) => DynamicImage::ImageLumaA8(image.to_luma_alpha8()),
        (_, false, false) => DynamicImage::ImageRgb8(image.to_rgb8()),
        (_, false, true) => DynamicImage::ImageRgba8(image.to_rgba8()),
    })
}

/// Lanczos3 with SIMD (fast_image_resize): an order of magnitude faster than the image
/// crate's own filters, and sharp on the text of screenshots. Alpha is premultiplied while
/// resizing so that transparent pixels do not bleed their colour into the edges: by the
/// caller in place (`premultiplied`, the result then divided), else by the resizer. The
/// source keeps its depth (16-bit PNGs are resized at 16 bits) and only the small result
/// is converted to 8 bits.
fn resize(
    resizer: &mut Resizer,
    image: &DynamicImage,
    (width, height): (u32, u32),
    jpeg: bool,
    premultiplied: bool,
) -> Result<DynamicImage, ScaleError> {
    let failed = |e: &dyn std::fmt::Display| ScaleError::Undecodable(e.to_string());
    let options = ResizeOptions::new()
        .resize_alg(ResizeAlg::Convolution(FilterType::Lanczos3))
        .use_alpha(!premultiplied);
    let mut resized = DynamicImage::new(width, height, image.color());
    resizer
        .resize(image, &mut resized, &options)
        .map_err(|e| failed(&e))?;
    if premultiplied {
        MulDiv::new()
            .divide_alpha_inplace(&mut resized)
            .map_err(|e| failed(&e))?;
    }
    Ok(to_8_bit(&resized, jpeg).unwrap_or(resized))
}

/// The image encoded as it is sent, and whether that is JPEG: a JPEG source as JPEG; any
/// other as PNG, or as JPEG when it has no transparent pixel and JPEG is the smaller.
fn smaller_encoding(image: &DynamicImage, jpeg: bool) -> Result<(Vec<u8>, bool), ScaleError> {
    if jpeg {
        return Ok((encode(image, true)?, true));
    }
    let png = encode(image, false)?;
    let opaque = match image {
        DynamicImage::ImageRgba8(pixels) => pixels.pixels().all(|p| p.0[3] == u8::MAX),
        DynamicImage::ImageLumaA8(pixels) => pixels.pixels().all(|p| p.0[1] == u8::MAX),
        other => !other.color().has_alpha(),
    };
    if !opaque {
        return Ok((png, false));
    }
    let jpeg_bytes = match image.color().has_alpha() {
        true => encode(
            &to_8_bit(image, true).unwrap_or_else(|| image.clone()),
            true,
        )?,
        false => encode(image, true)?,
    };
    Ok(match jpeg_bytes.len() < png.len() {
        true => (jpeg_bytes, true),
        false => (png, false),
    })
}

/// PNG at the fastest setting: what a vision model is charged depends on the pixels, not
/// the bytes, and the stronger settings cost 3 to 40 times as long for 15-60 % smaller files.
fn encode(image: &DynamicImage, jpeg: bool) -> Result<Vec<u8>, ScaleError> {
    let mut out = Vec::new();
    let written = if jpeg {
        image.write_with_encoder(JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY))
    } else {
        image.write_with_encoder(PngEncoder::new_with_quality(
            &mut out,
            CompressionType::Fast,
            PngFilter::Adaptive,
        ))
    };
    written.map_err(|e| ScaleError::Undecodable(e.to_string()))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::codecs::gif::GifEncoder;
    use image::codecs::webp::WebPEncoder;
    use image::{ImageEncoder, Rgb, RgbImage, Rgba, RgbaImage};

    fn gradient(width: u32, height: u32) -> RgbImage {
        RgbImage::from_fn(width, height, |x, y| {
            Rgb([(x % 256) as u8, (y % 256) as u8, 128])
        })
    }

    fn png(image: &DynamicImage) -> Vec<u8> {
        let mut out = Vec::new();
        image.write_with_encoder(PngEncoder::new(&mut out)).unwrap();
        out
    }

    /// `bytes` followed by zeros up to `len` bytes, from the allocator at once (`resize`
    /// writes them a byte at a time unoptimised: a quarter of a second for 64 MiB).
    fn padded(bytes: &[u8], len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len];
        out[..bytes.len()].copy_from_slice(bytes);
        out
    }

    fn decoded(scaled: &Scaled) -> DynamicImage {
        let image = image::load_from_memory(&scaled.bytes).unwrap();
        assert_eq!(
            (image.width(), image.height()),
            (scaled.width, scaled.height)
        );
        image
    }

    fn scale(bytes: &[u8], kind: Codec) -> Result<Option<Scaled>, ScaleError> {
        let (width, height) = ImageReader::new(Cursor::new(bytes))
            .with_guessed_format()
            .unwrap()
            .into_dimensions()
            .unwrap();
        scale_if_needed(bytes, kind, width, height)
    }

    /// A PNG whose header says `width` x `height` (1-bit grey) and whose pixels are missing.
    fn png_header(width: u32, height: u32) -> Vec<u8> {
        fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
            out.extend_from_slice(&(data.len() as u32).to_be_bytes());
            let start = out.len();
            out.extend_from_slice(kind);
            out.extend_from_slice(data);
            let crc = crc32(&out[start..]);
            out.extend_from_slice(&crc.to_be_bytes());
        }
        let mut ihdr = Vec::new();
        ihdr.extend_from_slice(&width.to_be_bytes());
        ihdr.extend_from_slice(&height.to_be_bytes());
        ihdr.extend_from_slice(&[1, 0, 0, 0, 0]);
        let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
        chunk(&mut out, b"IHDR", &ihdr);
        chunk(&mut out, b"IDAT", &[0x78, 0x9c, 0x03, 0x00]);
        chunk(&mut out, b"IEND", &[]);
        out
    }

    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xedb8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    #[test]
    fn proportions_kept_shorter_side_rounded() {
        assert_eq!(fit(4000, 3000, MAX_SIDE), (1568, 1176));
        assert_eq!(fit(3000, 4000, MAX_SIDE), (1176, 1568));
        assert_eq!(fit(2000, 1001, MAX_SIDE), (1568, 785));
        assert_eq!(fit(1569, 1000, MAX_SIDE), (1568, 999));
        assert_eq!(fit(100_000, 1, MAX_SIDE), (1568, 1));
        assert_eq!(fit(1568, 1568, MAX_SIDE), (1568, 1568));
        assert_eq!(fit(10, 20, MAX_SIDE), (10, 20));
    }

    #[test]
    fn longer_side_1568_is_sent_as_is_1569_is_scaled() {
        for (width, height) in [(1568, 12), (12, 1568)] {
            let bytes = png(&DynamicImage::ImageRgb8(gradient(width, height)));
            assert_eq!(scale(&bytes, Codec::Png), Ok(None));
        }
        let bytes = png(&DynamicImage::ImageRgb8(gradient(1569, 12)));
        let scaled = scale(&bytes, Codec::Png).unwrap().unwrap();
        assert_eq!(
            (scaled.mime_type, scaled.width, scaled.height),
            ("image/png", 1568, 12)
        );
        decoded(&scaled);
        let bytes = png(&DynamicImage::ImageRgb8(gradient(12, 1569)));
        let scaled = scale(&bytes, Codec::Png).unwrap().unwrap();
        assert_eq!((scaled.width, scaled.height), (12, 1568));
    }

    #[test]
    fn scaled_png_proportions() {
        // 65 x 1568 / 2000 = 50.96: the shorter side rounds to the nearest pixel.
        let bytes = png(&DynamicImage::ImageRgb8(gradient(2000, 65)));
        let scaled = scale(&bytes, Codec::Png).unwrap().unwrap();
        assert_eq!((scaled.width, scaled.height), (1568, 51));
        assert_eq!(decoded(&scaled).color(), image::ColorType::Rgb8);
    }

    #[test]
    fn jpeg_stays_jpeg() {
        let mut bytes = Vec::new();
        JpegEncoder::new_with_quality(&mut bytes, 90)
            .write_image(
                gradient(1600, 120).as_raw(),
                1600,
                120,
                image::ExtendedColorType::Rgb8,
            )
            .unwrap();
        let scaled = scale(&bytes, Codec::Jpeg).unwrap().unwrap();
        assert_eq!(
            (scaled.mime_type, scaled.width, scaled.height),
            ("image/jpeg", 1568, 118)
        );
        assert_eq!(
            image::guess_format(&scaled.bytes).unwrap(),
            ImageFormat::Jpeg
        );
        decoded(&scaled);
    }

    #[test]
    fn exif_orientation_is_applied_before_scaling() {
        let bytes = turned_jpeg(2000, 100);
        let scaled = scale_if_needed(&bytes, Codec::Jpeg, 2000, 100)
            .unwrap()
            .unwrap();
        assert_eq!((scaled.width, scaled.height), (78, 1568));
        decoded(&scaled);
    }

    /// A JPEG stored `width` x `height` whose EXIF says to turn it a quarter clockwise.
    fn turned_jpeg(width: u32, height: u32) -> Vec<u8> {
        let mut bytes = Vec::new();
        JpegEncoder::new_with_quality(&mut bytes, 90)
            .write_image(
                gradient(width, height).as_raw(),
                width,
                height,
                image::ExtendedColorType::Rgb8,
            )
            .unwrap();
        // APP1 Exif, big-endian TIFF, one IFD entry: Orientation (0x0112) = 6, "rotate 90 CW".
        let exif: &[u8] =
            b"Exif\0\0MM\0\x2a\0\0\0\x08\0\x01\x01\x12\0\x03\0\0\0\x01\0\x06\0\0\0\0\0\0";
        let mut app1 = vec![0xff, 0xe1];
        app1.extend_from_slice(&((exif.len() + 2) as u16).to_be_bytes());
        app1.extend_from_slice(exif);
        bytes.splice(2..2, app1);
        bytes
    }

    #[test]
    fn sizes_are_as_shown_after_the_exif_orientation() {
        // Small enough to be sent as it is: the host turns it, so its sides are swapped.
        assert_eq!(
            as_shown(&turned_jpeg(40, 20), Codec::Jpeg, 40, 20),
            (20, 40)
        );
        let plain = png(&DynamicImage::ImageRgb8(gradient(40, 20)));
        assert_eq!(as_shown(&plain, Codec::Png, 40, 20), (40, 20));
        assert_eq!(as_shown(b"\xFF\xD8\xFFjunk", Codec::Jpeg, 40, 20), (40, 20));
    }

    #[test]
    fn gif_and_webp_with_transparency_become_png() {
        let frame = RgbaImage::from_fn(1600, 40, |x, y| {
            let alpha = if (x + y) % 5 == 0 { 0 } else { 255 };
            Rgba([(x % 7 * 30) as u8, (y * 5) as u8, 0, alpha])
        });
        let mut gif = Vec::new();
        GifEncoder::new(&mut gif)
            .encode_frame(image::Frame::new(frame.clone()))
            .unwrap();
        let mut webp = Vec::new();
        WebPEncoder::new_lossless(&mut webp)
            .write_image(frame.as_raw(), 1600, 40, image::ExtendedColorType::Rgba8)
            .unwrap();
        for (bytes, kind) in [(gif, Codec::Gif), (webp, Codec::Webp)] {
            let scaled = scale(&bytes, kind).unwrap().unwrap();
            assert_eq!(
                (scaled.mime_type, scaled.width, scaled.height),
                ("image/png", 1568, 39)
            );
            assert_eq!(
                image::guess_format(&scaled.bytes).unwrap(),
                ImageFormat::Png
            );
            decoded(&scaled);
        }
    }

    /// Alpha premultiplied in place: transparent pixels lend no colour to their opaque
    /// neighbours, and opaque ones keep theirs.
    #[test]
    fn transparent_pixels_do_not_bleed_into_opaque_ones() {
        // Left half transparent red, right half opaque blue, in stripes the filter mixes.
        let frame = RgbaImage::from_fn(3200, 8, |x, _| match (x / 2) % 2 {
            0 => Rgba([255, 0, 0, 0]),
            _ => Rgba([0, 0, 255, 255]),
        });
        let scaled = scale(&png(&DynamicImage::ImageRgba8(frame)), Codec::Png)
            .unwrap()
            .unwrap();
        let image = decoded(&scaled).to_rgba8();
        for p in image.pixels().filter(|p| p.0[3] > 0) {
            assert!(p.0[0] < 8 && p.0[2] > 240, "{p:?}");
        }
    }

    #[test]
    fn progressive_jpegs_are_told_from_baseline_ones() {
        // A baseline JPEG with an EXIF segment before its frame header, walked past.
        let baseline = turned_jpeg(16, 16);
        assert!(!progressive(&baseline));
        // The same segments with the frame header's marker made SOF2.
        let sof = baseline.windows(2).position(|w| w == [0xFF, 0xC0]).unwrap();
        let mut turned = baseline.clone();
        turned[sof + 1] = 0xC2;
        assert!(progressive(&turned));
        assert!(!progressive(b"\xFF\xD8\xFF"));
        assert!(!progressive(b"\xFF\xD8\xFF\xE0\xFF\xFF"));
    }

    #[test]
    fn sixteen_bit_alpha_becomes_eight_bit_alpha() {
        let image = image::ImageBuffer::<Rgba<u16>, _>::from_fn(1600, 8, |x, _| {
            Rgba([x as u16 * 40, 0, 65535, if x % 2 == 0 { 0 } else { 65535 }])
        });
        let bytes = png(&DynamicImage::ImageRgba16(image));
        let scaled = scale(&bytes, Codec::Png).unwrap().unwrap();
        assert_eq!(decoded(&scaled).color(), image::ColorType::Rgba8);
    }

    #[test]
    fn a_file_over_5_mib_is_sent_under_5_mib() {
        // Noise does not compress: 1200x1200 RGBA is 5.8 MB as PNG, and still over 5 MiB
        // at the same size, so it is scaled down until it fits.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let noise = RgbaImage::from_fn(1200, 1200, |_, _| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            Rgba((seed as u32).to_le_bytes())
        });
        let bytes = png(&DynamicImage::ImageRgba8(noise));
        assert!(bytes.len() as u64 > MAX_SENT_BYTES);
        let scaled = scale(&bytes, Codec::Png).unwrap().unwrap();
        assert!(scaled.bytes.len() as u64 <= MAX_SENT_BYTES);
        assert!(scaled.width < 1200);
        assert_eq!(scaled.width, scaled.height);
        decoded(&scaled);
    }

    #[test]
    fn a_file_over_5_mib_that_compresses_keeps_its_size() {
        // A small PNG padded past 5 MiB (decoders stop at IEND): re-encoded at 16x16.
        let image = png(&DynamicImage::ImageRgb8(gradient(16, 16)));
        let mut bytes = padded(&image, MAX_SENT_BYTES as usize + 1);
        let scaled = scale_if_needed(&bytes, Codec::Png, 16, 16)
            .unwrap()
            .unwrap();
        assert_eq!((scaled.width, scaled.height), (16, 16));
        bytes.truncate(MAX_SENT_BYTES as usize);
        assert_eq!(scale_if_needed(&bytes, Codec::Png, 16, 16), Ok(None));
    }

    #[test]
    fn files_over_64_mib_are_refused_before_decoding() {
        let image = png(&DynamicImage::ImageRgb8(gradient(16, 16)));
        let mut bytes = padded(&image, MAX_FILE_BYTES as usize);
        assert!(matches!(
            scale_if_needed(&bytes, Codec::Png, 16, 16),
            Ok(Some(_))
        ));
        bytes.push(0);
        assert_eq!(
            scale_if_needed(&bytes, Codec::Png, 16, 16),
            Err(ScaleError::TooLarge)
        );
    }

    #[test]
    fn over_100_megapixels_refused_from_the_header() {
        // Exactly 100 MP passes the bound; its missing pixels then fail to decode.
        let exactly = png_header(10_000, 10_000);
        assert!(matches!(
            scale_if_needed(&exactly, Codec::Png, 10_000, 10_000),
            Err(ScaleError::Undecodable(_))
        ));
        let over = png_header(10_000, 10_001);
        assert_eq!(
            scale_if_needed(&over, Codec::Png, 10_000, 10_001),
            Err(ScaleError::TooLarge)
        );
        // A caller that read the header wrong: the decoder's own header still decides.
        assert_eq!(
            scale_if_needed(&over, Codec::Png, 2_000, 10),
            Err(ScaleError::TooLarge)
        );
        assert_eq!(
            scale_if_needed(&[], Codec::Png, u32::MAX, u32::MAX),
            Err(ScaleError::TooLarge)
        );
        // 100 megapixels in one column: refused by its side, before a row is decoded.
        let column = png_header(1, 100_000_000);
        assert_eq!(
            scale_if_needed(&column, Codec::Png, 1, 100_000_000),
            Err(ScaleError::TooLarge)
        );
        // A caller that read the header wrong: the decoder's side decides.
        assert_eq!(
            scale_if_needed(&column, Codec::Png, 1, 4_000),
            Err(ScaleError::TooLarge)
        );
    }

    #[test]
    fn corrupt_data_is_undecodable() {
        let bytes = png(&DynamicImage::ImageRgb8(gradient(2000, 50)));
        let cut = &bytes[..bytes.len() / 2];
        for (bytes, kind) in [
            (cut, Codec::Png),
            (&b""[..], Codec::Png),
            (&b"\xff\xd8\xff\xe0 not really a jpeg"[..], Codec::Jpeg),
            (&bytes[..], Codec::Jpeg),
            (&b"GIF89a\xff\xff\xff\xff"[..], Codec::Gif),
            (&b"RIFF\0\0\0\0WEBPVP8 garbage"[..], Codec::Webp),
        ] {
            assert!(
                matches!(
                    scale_if_needed(bytes, kind, 2000, 50),
                    Err(ScaleError::Undecodable(_))
                ),
                "{kind:?}"
            );
        }
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        /// A 1600x4 image (wide enough to be scaled) in each format, made once.
        fn samples() -> &'static [(Vec<u8>, Codec)] {
            static SAMPLES: std::sync::OnceLock<Vec<(Vec<u8>, Codec)>> = std::sync::OnceLock::new();
            SAMPLES.get_or_init(make_samples)
        }

        fn make_samples() -> Vec<(Vec<u8>, Codec)> {
            let frame = RgbaImage::from_fn(1600, 4, |x, y| Rgba([x as u8, y as u8, 7, 200]));
            let rgb = DynamicImage::ImageRgba8(frame.clone()).to_rgb8();
            let mut jpeg = Vec::new();
            JpegEncoder::new(&mut jpeg)
                .write_image(rgb.as_raw(), 1600, 4, image::ExtendedColorType::Rgb8)
                .unwrap();
            let mut gif = Vec::new();
            GifEncoder::new(&mut gif)
                .encode_frame(image::Frame::new(frame.clone()))
                .unwrap();
            let mut webp = Vec::new();
            WebPEncoder::new_lossless(&mut webp)
                .write_image(frame.as_raw(), 1600, 4, image::ExtendedColorType::Rgba8)
                .unwrap();
            vec![
                (png(&DynamicImage::ImageRgba8(frame)), Codec::Png),
                (jpeg, Codec::Jpeg),
                (gif, Codec::Gif),
                (webp, Codec::Webp),
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]
            #[test]
            fn damaged_images_never_panic(
                which in 0usize..4,
                edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..8),
                cut in any::<usize>(),
            ) {
                let (bytes, kind) = &samples()[which];
                let (mut bytes, kind) = (bytes.clone(), *kind);
                for (at, byte) in edits {
                    let at = at % bytes.len();
                    bytes[at] = byte;
                }
                bytes.truncate(cut % (bytes.len() + 1));
                if let Ok(Some(scaled)) = scale_if_needed(&bytes, kind, 1600, 4) {
                    prop_assert!(scaled.width <= MAX_SIDE && scaled.height <= MAX_SIDE);
                }
            }
        }
    }
}

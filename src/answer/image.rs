//! Images for the MCP server (SPEC §12, §16): PNG, JPEG, GIF and WebP, recognised by their
//! first bytes whatever their name; sent as they are when small, scaled down when large,
//! refused past 100 megapixels or 64 MiB before a pixel is decoded.

use std::fs::File;
use std::os::unix::fs::FileExt;

use crate::error::{Error, ErrorCode, ErrorDetail};
use crate::formats::scale::{self, ScaleError};
use crate::outcome::Image;
use crate::read::sniff::ImageKind;

/// Whether `file` starts like one of the four kinds of image.
pub fn is_image(file: &File) -> bool {
    let mut head = [0u8; 16];
    read_full(file, &mut head, 0).is_ok_and(|n| kind_of(&head[..n]).is_some())
}

/// What the caller asks of an image's bytes besides the image (SPEC §11, §17).
#[derive(Clone, Copy)]
pub enum Hashed<'a> {
    No,
    /// Their BLAKE3 in [`Image::hash`].
    Yes,
    /// Their BLAKE3, and no image made when it is this one (the caller has it).
    UnlessUnchanged(&'a str),
}

/// The image `file` holds, or None when its first bytes are not one of the four kinds.
pub fn read(file: &File, size: u64, display: &str, hashed: Hashed) -> Result<Option<Image>, Error> {
    let mut head = [0u8; 16];
    let n = read_full(file, &mut head, 0).map_err(|e| Error::read_failed(display, &e))?;
    let Some((kind, mime_type, format)) = kind_of(&head[..n]) else {
        return Ok(None);
    };
    let too_large = |what: String| {
        Error::new(
            ErrorCode::SizeLimitExceeded,
            format!(
                "Image '{display}' is {what}; images over 100 megapixels or 64 MiB, taller than 1000000 pixels, or over 400 MB once decoded (16-bit colour, progressive JPEG) are not sent."
            ),
        )
    };
    if size > scale::MAX_FILE_BYTES {
        return Err(too_large(format!("{size} bytes")));
    }
    // A file that grows past the bound while it is read is held to it all the same.
    let mut bytes = vec![0u8; size as usize];
    let n = read_full(file, &mut bytes, 0).map_err(|e| Error::read_failed(display, &e))?;
    bytes.truncate(n);
    let damaged = |message: String| Error {
        detail: Some(ErrorDetail::ImageDamaged),
        ..Error::new(ErrorCode::BinaryFile, message)
    };
    let unreadable = || {
        damaged(format!(
            "File '{display}' starts like a {kind} image but its size cannot be read."
        ))
    };
    if !ImageKind::of(&bytes).is_some_and(|kind| kind.header_sound(&bytes)) {
        return Err(unreadable());
    }
    let dimensions = imagesize::blob_size(&bytes).map_err(|_| unreadable())?;
    // As shown: a photo whose EXIF says to turn it a quarter is as wide as it is stored high.
    // The hash of the bytes just read; when the caller has them, nothing is decoded.
    let hash = match hashed {
        Hashed::No => None,
        Hashed::Yes | Hashed::UnlessUnchanged(_) => Some(blake3::hash(&bytes).to_hex().to_string()),
    };
    if let (Hashed::UnlessUnchanged(known), Some(hash)) = (hashed, &hash)
        && known == hash
    {
        return Ok(Some(Image {
            kind,
            mime_type,
            width: 0,
            height: 0,
            sent_width: 0,
            sent_height: 0,
            scaled: false,
            bytes: Vec::new(),
            hash: Some(hash.clone()),
            unchanged: true,
        }));
    }
    let (width, height) = scale::as_shown(
        &bytes,
        format,
        dimensions.width as u64,
        dimensions.height as u64,
    );
    // A model's API refuses an image without pixels: it is no image to send.
    if width == 0 || height == 0 {
        return Err(Error::new(
            ErrorCode::BinaryFile,
            format!("Image '{display}' is {kind}, {width}x{height}: it has no pixels to send."),
        ));
    }
    if width.saturating_mul(height) > scale::MAX_PIXELS {
        return Err(too_large(format!(
            "{width}x{height} ({} megapixels)",
            width.saturating_mul(height) / 1_000_000
        )));
    }
    let header = (
        u32::try_from(width).unwrap_or(u32::MAX),
        u32::try_from(height).unwrap_or(u32::MAX),
    );
    match scale::scale_if_needed(&bytes, format, header.0, header.1) {
        Ok(None) => Ok(Some(Image {
            kind,
            mime_type,
            width,
            height,
            sent_width: width,
            sent_height: height,
            scaled: false,
            bytes,
            hash,
            unchanged: false,
        })),
        Ok(Some(scaled)) => Ok(Some(Image {
            kind,
            mime_type: scaled.mime_type,
            width,
            height,
            sent_width: u64::from(scaled.width),
            sent_height: u64::from(scaled.height),
            scaled: true,
            bytes: scaled.bytes,
            hash,
            unchanged: false,
        })),
        Err(ScaleError::TooLarge) => Err(too_large(format!("{width}x{height}, {size} bytes"))),
        Err(ScaleError::Undecodable(why)) => Err(damaged(format!(
            "File '{display}' starts like a {kind} image but cannot be decoded ({why})."
        ))),
    }
}

/// The four kinds an MCP host can show, from the header: its name, MIME type and the
/// scaler's kind.
pub fn kind_of(head: &[u8]) -> Option<(&'static str, &'static str, scale::Codec)> {
    let kind = ImageKind::of(head)?;
    let format = match kind {
        ImageKind::Png => scale::Codec::Png,
        ImageKind::Jpeg => scale::Codec::Jpeg,
        ImageKind::Gif => scale::Codec::Gif,
        ImageKind::Webp => scale::Codec::Webp,
    };
    Some((kind.name(), kind.mime_type(), format))
}

/// An image file's width and height, read from its header wherever it lies (a JPEG's
/// can follow a large EXIF block), without reading the rest.
pub fn dimensions(file: &File) -> Option<(u64, u64)> {
    use std::io::{Seek, SeekFrom};
    let mut head = [0u8; 16];
    let n = read_full(file, &mut head, 0).ok()?;
    if !ImageKind::of(&head[..n]).is_some_and(|kind| kind.header_sound(&head[..n])) {
        return None;
    }
    let mut reader = std::io::BufReader::new(file);
    reader.seek(SeekFrom::Start(0)).ok()?;
    let size = imagesize::reader_size(reader).ok()?;
    Some((size.width as u64, size.height as u64))
}

pub fn read_full(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match file.read_at(&mut buf[filled..], offset + filled as u64) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(head: &[u8]) -> Option<&'static str> {
        let mut padded = head.to_vec();
        padded.resize(16, 0);
        kind_of(&padded).map(|(kind, ..)| kind)
    }

    #[test]
    fn only_the_four_kinds_are_images() {
        assert_eq!(kind(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), Some("PNG"));
        assert_eq!(kind(b"\xFF\xD8\xFF\xE0\0\x10JFIF\0"), Some("JPEG"));
        assert_eq!(kind(b"GIF89a\x01\0\x01\0"), Some("GIF"));
        assert_eq!(kind(b"RIFF\0\0\0\0WEBPVP8 "), Some("WebP"));
        assert_eq!(kind(b"BM\0\0\0\0\0\0\0\0"), None);
        assert_eq!(kind(b"plain text, not an image"), None);
    }
}

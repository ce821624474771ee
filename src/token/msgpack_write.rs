//! MessagePack's primitive forms, written as go-cty's encoder writes them: the smallest
//! form for each integer and length.

/// An integer in the smallest form, unsigned forms for non-negative values.
#[inline(always)]
pub(crate) fn int(i: i64, out: &mut Vec<u8>) {
    match u64::try_from(i) {
        Ok(u) => uint(u, out),
        Err(_) => negative(i, out),
    }
}

/// A non-negative integer in the smallest unsigned form.
#[inline(always)]
pub(crate) fn uint(u: u64, out: &mut Vec<u8>) {
    if u < 128 {
        out.push(u as u8);
    } else if u <= u8::MAX as u64 {
        out.extend_from_slice(&[0xcc, u as u8]);
    } else if u <= u16::MAX as u64 {
        out.push(0xcd);
        out.extend_from_slice(&(u as u16).to_be_bytes());
    } else if u <= u32::MAX as u64 {
        out.push(0xce);
        out.extend_from_slice(&(u as u32).to_be_bytes());
    } else {
        out.push(0xcf);
        out.extend_from_slice(&u.to_be_bytes());
    }
}

/// A negative integer in the smallest signed form.
#[inline(always)]
pub(crate) fn negative(i: i64, out: &mut Vec<u8>) {
    if i >= -32 {
        out.push(i as i8 as u8);
    } else if i >= i8::MIN as i64 {
        out.extend_from_slice(&[0xd0, i as i8 as u8]);
    } else if i >= i16::MIN as i64 {
        out.push(0xd1);
        out.extend_from_slice(&(i as i16).to_be_bytes());
    } else if i >= i32::MIN as i64 {
        out.push(0xd2);
        out.extend_from_slice(&(i as i32).to_be_bytes());
    } else {
        out.push(0xd3);
        out.extend_from_slice(&i.to_be_bytes());
    }
}

/// A str, in the smallest form for its length.
#[inline(always)]
pub(crate) fn str(s: &(impl AsRef<[u8]> + ?Sized), out: &mut Vec<u8>) {
    let s = s.as_ref();
    let n = s.len();
    out.reserve(n + 5);
    if n < 32 {
        out.push(0xa0 | n as u8);
    } else if n <= u8::MAX as usize {
        out.extend_from_slice(&[0xd9, n as u8]);
    } else if n <= u16::MAX as usize {
        out.push(0xda);
        out.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        out.push(0xdb);
        out.extend_from_slice(&(n as u32).to_be_bytes());
    }
    out.extend_from_slice(s);
}

/// A bin, in the smallest form for its length.
pub(crate) fn bin(b: &[u8], out: &mut Vec<u8>) {
    let n = b.len();
    if n <= u8::MAX as usize {
        out.extend_from_slice(&[0xc4, n as u8]);
    } else if n <= u16::MAX as usize {
        out.push(0xc5);
        out.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        out.push(0xc6);
        out.extend_from_slice(&(n as u32).to_be_bytes());
    }
    out.extend_from_slice(b);
}

/// An array (`fix` 0x90) or map (`fix` 0x80) header; `wide` is the 16-bit marker, and
/// the 32-bit marker follows it.
#[inline(always)]
pub(crate) fn header(n: usize, fix: u8, wide: u8, out: &mut Vec<u8>) {
    if n < 16 {
        out.push(fix | n as u8);
    } else if n <= u16::MAX as usize {
        out.push(wide);
        out.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        out.push(wide + 1);
        out.extend_from_slice(&(n as u32).to_be_bytes());
    }
}

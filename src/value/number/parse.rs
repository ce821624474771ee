//! Number text as go-cty parses it: decimal, with exponents, and binary (`p`) exponents,
//! each into the narrowest exact form.

use super::*;

/// The fast path: an optional sign and at most 19 digits, fitting `i64`.
pub(super) fn parse_plain_i64(b: &[u8]) -> Option<Number> {
    let (negative, digits) = match b.first()? {
        b'-' => (true, &b[1..]),
        b'+' => (false, &b[1..]),
        _ => (false, b),
    };
    if digits.is_empty() || digits.len() > 19 {
        return None;
    }
    let mut mag: u64 = 0;
    for &c in digits {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        mag = mag * 10 + u64::from(d);
    }
    if mag == 0 {
        return Some(Number::zero_signed(negative));
    }
    let v = if negative {
        -i128::from(mag)
    } else {
        i128::from(mag)
    };
    i64::try_from(v).ok().map(|i| Number(Repr::Int(i)))
}

/// Parses what [`parse_plain_i64`] does not; binary exponents are limited to
/// `max_exp2` in magnitude.
pub(super) fn parse_general(text: &str, max_exp2: i64) -> Result<Number, NumberError> {
    let invalid = || NumberError::invalid(text);
    let b = text.as_bytes();
    let mut i = 0;
    let mut negative = false;
    if let Some(&c) = b.first() {
        if c == b'+' || c == b'-' {
            negative = c == b'-';
            i = 1;
        }
    }
    if &b[i..] == b"Inf" || &b[i..] == b"inf" {
        return Ok(Number(Repr::Infinity { negative }));
    }

    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = &b[int_start..i];
    let mut frac_digits: &[u8] = &[];
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let frac_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        frac_digits = &b[frac_start..i];
    }
    if int_digits.is_empty() && frac_digits.is_empty() {
        return Err(invalid());
    }

    // Exponent: decimal (e) or binary (p). Go refuses exponents that overflow int64.
    let mut exp10: i64 = 0;
    let mut exp2: i64 = 0;
    if i < b.len() {
        let binary = match b[i] {
            b'e' | b'E' => false,
            b'p' | b'P' => true,
            _ => return Err(invalid()),
        };
        i += 1;
        let mut exp_negative = false;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            exp_negative = b[i] == b'-';
            i += 1;
        }
        if i == b.len() {
            return Err(invalid());
        }
        let mut e: i64 = 0;
        for &c in &b[i..] {
            if !c.is_ascii_digit() {
                return Err(invalid());
            }
            let d = i64::from(c - b'0');
            // Accumulate negatively so that i64::MIN is reachable, as Go's ParseInt.
            e = e
                .checked_mul(10)
                .and_then(|e| e.checked_sub(d))
                .ok_or_else(invalid)?;
        }
        if !exp_negative {
            e = e.checked_neg().ok_or_else(invalid)?;
        }
        if binary {
            // Refused before anything is computed: see `MAX_BINARY_EXPONENT`.
            if !(-max_exp2..=max_exp2).contains(&e) {
                return Err(NumberError::binary_exponent(text));
            }
            exp2 = e;
        } else {
            exp10 = e;
        }
    }

    // The significant digits: the mantissa without leading and trailing zeros.
    let all = || int_digits.iter().chain(frac_digits.iter()).copied();
    let total = int_digits.len() + frac_digits.len();
    let leading = all().take_while(|&c| c == b'0').count();
    if leading == total {
        return Ok(Number::zero_signed(negative));
    }
    let trailing = all().rev().take_while(|&c| c == b'0').count();
    let sig_len = total - leading - trailing;
    let sig = || all().skip(leading).take(sig_len);
    // value = sig × 10^e10 × 2^exp2; the digit counts are at most MAX_NUMBER_TEXT.
    let e10 = i128::from(exp10) + trailing as i128 - frac_digits.len() as i128;
    if exp2 != 0 {
        let digits: Vec<u8> = sig().collect();
        return parse_binary(text, negative, &digits, e10, i128::from(exp2));
    }

    let n = sig_len as i128;
    if plain_len(negative, n, e10) > MAX_NUMBER_TEXT as i128 {
        return Err(NumberError::too_long(text));
    }
    let scale = -(e10 as i64);
    if sig_len <= 19 {
        let mag = sig().fold(0u64, |acc, c| acc * 10 + u64::from(c - b'0'));
        if e10 >= 0 && n + e10 <= 19 {
            // An integer below 10^19: no big arithmetic needed.
            let v = i128::from(mag) * 10i128.pow(e10 as u32);
            if let Ok(i) = i64::try_from(if negative { -v } else { v }) {
                return Ok(Number(Repr::Int(i)));
            }
        }
        return Ok(Number::from_normalized(negative, BigUint::from(mag), scale));
    }
    let digits: Vec<u8> = sig().collect();
    let mag = BigUint::parse_bytes(&digits, 10).ok_or_else(invalid)?;
    Ok(Number::from_normalized(negative, mag, scale))
}

/// The length of the plain decimal text of ±K × 10^e where K has `n` digits and is not a
/// multiple of ten.
fn plain_len(negative: bool, n: i128, e: i128) -> i128 {
    let body = if e >= 0 {
        n + e
    } else if n > -e {
        n + 1
    } else {
        2 - e
    };
    body + i128::from(negative)
}

/// ±sig × 10^e10 × 2^exp2.
fn parse_binary(
    text: &str,
    negative: bool,
    sig: &[u8],
    e10: i128,
    exp2: i128,
) -> Result<Number, NumberError> {
    let too_long = || NumberError::too_long(text);
    let max = MAX_NUMBER_TEXT as i128;
    let mut a = BigUint::parse_bytes(sig, 10).ok_or_else(|| NumberError::invalid(text))?;
    // value = a × 2^p2 × 5^p5.
    let mut p2 = e10 + exp2;
    let mut p5 = e10;
    if p2 < 0 {
        let tz = i128::from(a.trailing_zeros().unwrap_or(0)).min(-p2);
        a >>= tz as usize;
        p2 += tz;
    }
    if p5 < 0 {
        strip_fives(&mut a, &mut p5);
    }
    // Now a factor 2 (5) is left in `a` only if p2 (p5) is not negative, so the value
    // has exactly `scale` fraction digits.
    let scale = (-p2).max(-p5).max(0);
    if scale > 0 && scale + 2 > max {
        return Err(too_long());
    }
    // A lower bound of log10(value); the integer part has more digits than that.
    let log2 = std::f64::consts::LOG10_2;
    let log5 = 1.0 - log2;
    let lower = (a.bits() as f64 - 1.0 + p2 as f64) * log2 + p5 as f64 * log5 - 1e-6;
    // The text has more than `lower` integer digits (when lower >= 0), then a point and
    // `scale` fraction digits.
    if lower > (max + 1) as f64 || lower.max(0.0) + scale as f64 > max as f64 {
        return Err(too_long());
    }
    // Both checks passed, so p2 and p5 are a few ten thousand at most.
    let mag = a * pow_u(2, (p2 + scale) as u32) * pow_u(5, (p5 + scale) as u32);
    let digits = mag.to_string().len() as i128;
    // The magnitude may end in zeros only when scale is 0.
    if plain_len(negative, digits, -scale) > max {
        return Err(too_long());
    }
    Ok(Number::from_parts(negative, mag, scale as i64))
}

/// base^exp as a big integer.
pub(super) fn pow_u(base: u32, exp: u32) -> BigUint {
    BigUint::from(base).pow(exp)
}

/// Divides factors of five out of `a` while `*p5` is negative, counting them in `*p5`.
fn strip_fives(a: &mut BigUint, p5: &mut i128) {
    const FIVE_27: u64 = 7_450_580_596_923_828_125;
    while *p5 <= -27 && (&*a % FIVE_27).is_zero() {
        *a /= FIVE_27;
        *p5 += 27;
    }
    while *p5 < 0 && (&*a % 5u32).is_zero() {
        *a /= 5u32;
        *p5 += 1;
    }
}

/// Removes trailing decimal zeros from `mag`, adjusting `scale`.
pub(super) fn strip_decimal_zeros(mag: &mut BigUint, scale: &mut i64) {
    const TEN_19: u64 = 10_000_000_000_000_000_000;
    loop {
        let low = (&*mag % TEN_19).to_u64().unwrap_or(1);
        if low == 0 {
            *mag /= TEN_19;
            *scale -= 19;
            continue;
        }
        let mut zeros = 0;
        let mut low = low;
        while low % 10 == 0 {
            low /= 10;
            zeros += 1;
        }
        if zeros > 0 {
            *mag /= 10u64.pow(zeros);
            *scale -= i64::from(zeros);
        }
        return;
    }
}

/// ±mag × 10^-scale as `i64`, when scale <= 0 and it fits.
pub(super) fn small_int(negative: bool, mag: &BigUint, scale: i64) -> Option<i64> {
    if scale < -18 {
        return None;
    }
    let m = i128::from(mag.to_u64()?);
    let v = m.checked_mul(10i128.pow((-scale) as u32))?;
    i64::try_from(if negative { -v } else { v }).ok()
}

//! [`Number`]: a cty number, with go-cty's text forms, equality and wire choices.
//!
//! go-cty holds a number as a Go `*big.Float` whose precision depends on where the number
//! came from: 64 bits for integers, 53 bits for a float64, 512 bits for decimal text. The
//! precision shows in the number's text and in its MessagePack form, so [`Number`] remembers
//! the origin too: an exact integer, a binary float64, or an exact decimal.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt::{self, Write as _};
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use bigdecimal::num_bigint::{BigInt, BigUint, Sign};
use bigdecimal::{BigDecimal, ToPrimitive, Zero};

use crate::limits::{MAX_BINARY_EXPONENT, MAX_NUMBER_TEXT};

/// A cty number: an arbitrary-precision value, or positive or negative infinity.
///
/// NaN never exists. A number remembers whether it came from a binary float64 (a
/// MessagePack float, or [`Number::from_f64`]), because go-cty does and because it changes
/// the number's text and its MessagePack form: float64 `0.1` goes on the wire as the float
/// `cb 3fb999999999999a`, decimal text `0.1` as the string `"0.1"`.
///
/// Numbers parsed from text are exact (go-cty rounds them to 512 bits; every digit is kept
/// here, up to [`MAX_NUMBER_TEXT`] bytes of plain decimal text).
///
/// Equality is go-cty's: integers compare exactly; other numbers compare by their plain
/// decimal text (so float64 `0.1` equals decimal `0.1`), and `-0` equals `0`. Because that
/// equality is not a numeric order, `Number` implements neither `Ord` nor `PartialOrd`; use
/// [`Number::cmp_numeric`] for the numeric order.
///
/// # Examples
///
/// ```
/// use ctywire::Number;
///
/// let n: Number = "0.1".parse().unwrap();
/// assert_eq!(n.to_string(), "0.1");
///
/// // A float64 equals the decimal it prints as.
/// assert_eq!(Number::from_f64(0.1).unwrap(), n);
/// assert_ne!(Number::from_f64(0.1 + 0.2).unwrap(), "0.3".parse::<Number>().unwrap());
///
/// // Text is plain decimal, never an exponent.
/// assert_eq!("1e3".parse::<Number>().unwrap().to_string(), "1000");
/// assert_eq!(Number::from(7u8).to_i64(), Some(7));
/// ```
#[derive(Clone)]
pub struct Number(Repr);

#[derive(Clone)]
enum Repr {
    /// An exact integer that fits `i64` (not from a float64).
    Int(i64),
    /// A float64: finite, never NaN; `-0.0` allowed.
    Float(f64),
    /// An exact decimal. Invariants: nonzero; normalized (the unscaled integer is not a
    /// multiple of ten); not an integer that fits `i64` (that is `Int`); its plain text is
    /// at most `MAX_NUMBER_TEXT` bytes.
    Decimal(Box<BigDecimal>),
    /// Positive or negative infinity.
    Infinity { negative: bool },
}

/// What the MessagePack encoder writes for a number (go-cty >= 1.14.4, except that a
/// float64 integer at or beyond 2^63 stays a float64).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum WireNumber<'a> {
    /// The compact integer form.
    Int(i64),
    /// A float64 (`cb ...`), including the infinities.
    Float(f64),
    /// A string holding the plain decimal text.
    Text(Cow<'a, str>),
}

/// Why text or a float could not become a [`Number`].
///
/// ```
/// use ctywire::Number;
///
/// let err = Number::parse("12,5").unwrap_err();
/// assert_eq!(err.to_string(), r#"invalid number "12,5""#);
/// assert!(!err.is_limit_exceeded());
/// assert!(Number::parse("1e100000").unwrap_err().is_limit_exceeded());
/// assert_eq!(Number::try_from(f64::NAN).unwrap_err().to_string(), "NaN is not a number");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberError {
    kind: ErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum ErrorKind {
    NaN,
    Invalid(String),
    TextTooLong,
    TooLong(String),
    BinaryExponent(String),
}

/// How many bytes of offending text an error message quotes.
const QUOTED_TEXT: usize = 40;

impl NumberError {
    /// Whether the text was refused for its size (longer than [`MAX_NUMBER_TEXT`] bytes,
    /// or a value too long in plain decimal form) rather than for its syntax or NaN.
    pub fn is_limit_exceeded(&self) -> bool {
        matches!(
            self.kind,
            ErrorKind::TextTooLong | ErrorKind::TooLong(_) | ErrorKind::BinaryExponent(_)
        )
    }

    fn nan() -> Self {
        NumberError {
            kind: ErrorKind::NaN,
        }
    }

    fn invalid(text: &str) -> Self {
        NumberError {
            kind: ErrorKind::Invalid(quoted_prefix(text)),
        }
    }

    fn text_too_long() -> Self {
        NumberError {
            kind: ErrorKind::TextTooLong,
        }
    }

    fn too_long(text: &str) -> Self {
        NumberError {
            kind: ErrorKind::TooLong(quoted_prefix(text)),
        }
    }

    fn binary_exponent(text: &str) -> Self {
        NumberError {
            kind: ErrorKind::BinaryExponent(quoted_prefix(text)),
        }
    }
}

/// The start of `text`, cut on a character boundary, with `...` when cut.
fn quoted_prefix(text: &str) -> String {
    if text.len() <= QUOTED_TEXT {
        return text.to_owned();
    }
    let mut end = QUOTED_TEXT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}

impl fmt::Display for NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::NaN => f.write_str("NaN is not a number"),
            ErrorKind::Invalid(text) => write!(f, "invalid number {text:?}"),
            ErrorKind::TextTooLong => {
                write!(f, "number text longer than {MAX_NUMBER_TEXT} bytes")
            }
            ErrorKind::TooLong(text) => write!(
                f,
                "number {text:?} is longer than {MAX_NUMBER_TEXT} bytes in plain decimal form"
            ),
            ErrorKind::BinaryExponent(text) => write!(
                f,
                "number {text:?} has a binary exponent beyond the limit of \
                 {MAX_BINARY_EXPONENT} in magnitude"
            ),
        }
    }
}

impl std::error::Error for NumberError {}

/// A number's error as the crate's [`Error`](crate::Error): of kind
/// [`LimitExceeded`](crate::ErrorKind::LimitExceeded) where the text was refused for its
/// size, [`InvalidValue`](crate::ErrorKind::InvalidValue) otherwise.
///
/// ```
/// use ctywire::{ErrorKind, Number};
///
/// let err = ctywire::Error::from(Number::parse("1e100000").unwrap_err());
/// assert_eq!(err.kind(), ErrorKind::LimitExceeded);
/// let err = ctywire::Error::from(Number::parse("12,5").unwrap_err());
/// assert_eq!(err.kind(), ErrorKind::InvalidValue);
/// assert_eq!(err.to_string(), r#"invalid number "12,5""#);
/// ```
impl From<NumberError> for crate::Error {
    fn from(e: NumberError) -> crate::Error {
        let kind = if e.is_limit_exceeded() {
            crate::ErrorKind::LimitExceeded
        } else {
            crate::ErrorKind::InvalidValue
        };
        crate::Error::new(kind, e.to_string())
    }
}

// ---------------------------------------------------------------------------------------
// Construction

impl Number {
    /// Positive infinity.
    pub fn infinity() -> Number {
        Number(Repr::Infinity { negative: false })
    }

    /// Negative infinity.
    pub fn neg_infinity() -> Number {
        Number(Repr::Infinity { negative: true })
    }

    /// Zero (an exact integer).
    pub fn zero() -> Number {
        Number(Repr::Int(0))
    }

    /// A number of float64 origin (as a MessagePack float32 or float64 decodes).
    ///
    /// Returns `None` for NaN; the infinities give [`Number::infinity`] and
    /// [`Number::neg_infinity`]. `-0.0` is kept (it prints as `-0`).
    pub fn from_f64(f: f64) -> Option<Number> {
        if f.is_nan() {
            None
        } else if f.is_infinite() {
            Some(Number(Repr::Infinity { negative: f < 0.0 }))
        } else {
            Some(Number(Repr::Float(f)))
        }
    }

    /// Parses number text as go-cty does (Go's `big.ParseFloat(text, 10, 512,
    /// ToNearestEven)`), but keeps the exact decimal value instead of rounding to 512 bits.
    ///
    /// Accepted: an optional sign (`+` or `-`); then `Inf` or `inf`, or digits with an
    /// optional `.` (at least one digit: `.5` and `5.` are fine), then an optional decimal
    /// exponent (`e`/`E`, optional sign, digits) or binary exponent (`p`/`P`: `1p10` is
    /// 1024). Nothing else: no spaces, no `_`, no `0x`, no `NaN`, no `Infinity`.
    ///
    /// `-0` (in any spelling) is kept as negative zero, as go-cty keeps it.
    ///
    /// # Errors
    ///
    /// Invalid text; text longer than [`MAX_NUMBER_TEXT`] bytes; a value whose plain
    /// decimal text would be longer than that (such as `1e100000`), refused before it is
    /// expanded; or a binary exponent beyond [`MAX_BINARY_EXPONENT`] in magnitude (such
    /// as `1p-4000`).
    pub fn parse(text: &str) -> Result<Number, NumberError> {
        if let Some(n) = parse_plain_i64(text.as_bytes()) {
            return Ok(n);
        }
        if text.len() > MAX_NUMBER_TEXT {
            return Err(NumberError::text_too_long());
        }
        parse_general(text, MAX_BINARY_EXPONENT)
    }

    /// Builds a number from a sign, a magnitude and a decimal scale (value = ±mag ×
    /// 10^-scale), normalizing to the representation's invariants. The caller has bounded
    /// the plain text length.
    fn from_parts(negative: bool, mut mag: BigUint, mut scale: i64) -> Number {
        if mag.is_zero() {
            return Number::zero_signed(negative);
        }
        strip_decimal_zeros(&mut mag, &mut scale);
        Number::from_normalized(negative, mag, scale)
    }

    /// As [`Number::from_parts`], for a magnitude that is nonzero and not a multiple of
    /// ten.
    fn from_normalized(negative: bool, mag: BigUint, scale: i64) -> Number {
        if scale <= 0 {
            if let Some(i) = small_int(negative, &mag, scale) {
                return Number(Repr::Int(i));
            }
        }
        let sign = if negative { Sign::Minus } else { Sign::Plus };
        Number(Repr::Decimal(Box::new(BigDecimal::new(
            BigInt::from_biguint(sign, mag),
            scale,
        ))))
    }

    fn zero_signed(negative: bool) -> Number {
        if negative {
            Number(Repr::Float(-0.0))
        } else {
            Number::zero()
        }
    }
}

impl Default for Number {
    /// Zero.
    fn default() -> Self {
        Number::zero()
    }
}

macro_rules! from_small_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Number {
            #[doc = concat!("An exact integer from `", stringify!($t), "`.")]
            fn from(v: $t) -> Number {
                Number(Repr::Int(i64::from(v)))
            }
        }
    )*};
}

from_small_int!(i8, i16, i32, i64, u8, u16, u32);

impl From<u64> for Number {
    /// An exact integer from `u64` (values above `i64::MAX` are kept exactly too).
    fn from(v: u64) -> Number {
        match i64::try_from(v) {
            Ok(i) => Number(Repr::Int(i)),
            Err(_) => Number::from_parts(false, BigUint::from(v), 0),
        }
    }
}

impl From<usize> for Number {
    /// An exact integer from `usize`.
    fn from(v: usize) -> Number {
        // usize is at most 64 bits on every supported target.
        Number::from(v as u64)
    }
}

impl TryFrom<f64> for Number {
    type Error = NumberError;

    /// As [`Number::from_f64`], with an error for NaN.
    fn try_from(f: f64) -> Result<Number, NumberError> {
        Number::from_f64(f).ok_or_else(NumberError::nan)
    }
}

impl FromStr for Number {
    type Err = NumberError;

    /// As [`Number::parse`].
    fn from_str(s: &str) -> Result<Number, NumberError> {
        Number::parse(s)
    }
}

// ---------------------------------------------------------------------------------------
// Parsing

/// The fast path: an optional sign and at most 19 digits, fitting `i64`.
fn parse_plain_i64(b: &[u8]) -> Option<Number> {
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
fn parse_general(text: &str, max_exp2: i64) -> Result<Number, NumberError> {
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
fn pow_u(base: u32, exp: u32) -> BigUint {
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
fn strip_decimal_zeros(mag: &mut BigUint, scale: &mut i64) {
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
fn small_int(negative: bool, mag: &BigUint, scale: i64) -> Option<i64> {
    if scale < -18 {
        return None;
    }
    let m = i128::from(mag.to_u64()?);
    let v = m.checked_mul(10i128.pow((-scale) as u32))?;
    i64::try_from(if negative { -v } else { v }).ok()
}

// ---------------------------------------------------------------------------------------
// Queries and conversions

/// Splits a finite float64 into sign, mantissa and binary exponent: |f| = m × 2^e.
fn decode_f64(f: f64) -> (bool, u64, i64) {
    let bits = f.to_bits();
    let negative = bits >> 63 != 0;
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1 << 52) - 1);
    if biased == 0 {
        (negative, frac, -1074)
    } else {
        (negative, frac | (1 << 52), biased - 1075)
    }
}

/// The exact value of a finite float64 as a decimal.
fn f64_to_big_decimal(f: f64) -> BigDecimal {
    let (negative, m, e) = decode_f64(f);
    let sign = if negative { Sign::Minus } else { Sign::Plus };
    if m == 0 {
        return BigDecimal::zero();
    }
    if e >= 0 {
        return BigDecimal::new(BigInt::from_biguint(sign, BigUint::from(m) << e), 0);
    }
    let tz = i64::from(m.trailing_zeros()).min(-e);
    let (m, e) = (m >> tz, e + tz);
    let k = (-e) as u32;
    BigDecimal::new(
        BigInt::from_biguint(sign, BigUint::from(m) * pow_u(5, k)),
        -e,
    )
}

/// `f` as `i64`, when it is an integer in range.
fn f64_to_i64_exact(f: f64) -> Option<i64> {
    if f.fract() == 0.0 && (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f)
    {
        Some(f as i64)
    } else {
        None
    }
}

impl Number {
    /// Whether this is positive or negative infinity.
    pub fn is_infinite(&self) -> bool {
        matches!(self.0, Repr::Infinity { .. })
    }

    /// Whether this is a finite integer (`-0`, a float64 `1.0` and decimal `1e3` are).
    pub fn is_integer(&self) -> bool {
        match &self.0 {
            Repr::Int(_) => true,
            Repr::Float(f) => f.fract() == 0.0,
            Repr::Decimal(d) => d.as_bigint_and_scale().1 <= 0,
            Repr::Infinity { .. } => false,
        }
    }

    /// Whether this is a negative zero (a float64 `-0`, or parsed `"-0"`): equal to zero,
    /// but printed `-0` in JSON and hashed apart from `0` in sets, as go-cty does.
    ///
    /// ```
    /// use ctywire::Number;
    /// assert!("-0".parse::<Number>().unwrap().is_negative_zero());
    /// assert!(!Number::zero().is_negative_zero());
    /// ```
    pub fn is_negative_zero(&self) -> bool {
        matches!(self.0, Repr::Float(f) if f == 0.0 && f.is_sign_negative())
    }

    /// Whether this is below zero (negative infinity is; `-0` is not).
    pub fn is_negative(&self) -> bool {
        match &self.0 {
            Repr::Int(i) => *i < 0,
            Repr::Float(f) => *f < 0.0,
            Repr::Decimal(d) => d.sign() == Sign::Minus,
            Repr::Infinity { negative } => *negative,
        }
    }

    /// Whether this number came from a binary float64 (a MessagePack float, or
    /// [`Number::from_f64`]). False for the infinities, which have no origin.
    pub fn is_float_origin(&self) -> bool {
        matches!(self.0, Repr::Float(_))
    }

    /// The value as `i64`, if it is an integer that fits exactly.
    pub fn to_i64(&self) -> Option<i64> {
        match &self.0 {
            Repr::Int(i) => Some(*i),
            Repr::Float(f) => f64_to_i64_exact(*f),
            // A decimal is never an integer in i64's range.
            Repr::Decimal(_) | Repr::Infinity { .. } => None,
        }
    }

    /// The value as `u64`, if it is an integer that fits exactly.
    pub fn to_u64(&self) -> Option<u64> {
        match &self.0 {
            Repr::Int(i) => u64::try_from(*i).ok(),
            Repr::Float(f) => {
                if f.fract() == 0.0 && (0.0..18_446_744_073_709_551_616.0).contains(f) {
                    Some(*f as u64)
                } else {
                    None
                }
            }
            Repr::Decimal(d) => {
                let (k, scale) = d.as_bigint_and_scale();
                if !(-19..=0).contains(&scale) {
                    return None;
                }
                k.to_u64()?.checked_mul(10u64.pow((-scale) as u32))
            }
            Repr::Infinity { .. } => None,
        }
    }

    /// The nearest float64 (correctly rounded); the infinities map to the infinities, and
    /// so do finite values beyond the float64 range.
    pub fn to_f64(&self) -> f64 {
        match &self.0 {
            Repr::Int(i) => *i as f64,
            Repr::Float(f) => *f,
            Repr::Decimal(d) => {
                let (k, scale) = d.as_bigint_and_scale();
                format!("{}e{}", k, -scale)
                    .parse()
                    .expect("scientific notation always parses as f64")
            }
            Repr::Infinity { negative } => {
                if *negative {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                }
            }
        }
    }

    /// The exact value as a [`BigDecimal`] (a float64 gives its exact binary value, so
    /// float64 `0.1` is `0.1000000000000000055511151231257827...`); `None` for the
    /// infinities. Negative zero gives zero.
    pub fn to_big_decimal(&self) -> Option<BigDecimal> {
        match &self.0 {
            Repr::Int(i) => Some(BigDecimal::from(*i)),
            Repr::Float(f) => Some(f64_to_big_decimal(*f)),
            Repr::Decimal(d) => Some((**d).clone()),
            Repr::Infinity { .. } => None,
        }
    }

    /// The exact numeric order (as Go's `big.Float.Cmp`): negative infinity is below
    /// everything, positive infinity above, `-0` equals `0`, and a float64 compares by its
    /// exact binary value.
    pub fn cmp_numeric(&self, other: &Number) -> Ordering {
        use Repr::*;
        match (&self.0, &other.0) {
            (Infinity { negative: a }, Infinity { negative: b }) => b.cmp(a),
            (Infinity { negative }, _) => {
                if *negative {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
            (_, Infinity { .. }) => other.cmp_numeric(self).reverse(),
            (Int(a), Int(b)) => a.cmp(b),
            (Float(a), Float(b)) => a.partial_cmp(b).unwrap_or(Ordering::Equal),
            (Int(a), Float(b)) => cmp_i64_f64(*a, *b),
            (Float(a), Int(b)) => cmp_i64_f64(*b, *a).reverse(),
            _ => match (self.to_big_decimal(), other.to_big_decimal()) {
                (Some(a), Some(b)) => a.cmp(&b),
                _ => Ordering::Equal,
            },
        }
    }

    /// Appends the number's text (its [`Display`](fmt::Display) form) to `out`, without
    /// building a string.
    pub(crate) fn write_text(&self, out: &mut Vec<u8>) {
        match self.0 {
            Repr::Int(i) => write_i64(i, out),
            _ => {
                use std::io::Write as _;
                // Writing to a vector cannot fail.
                let _ = write!(out, "{self}");
            }
        }
    }

    /// Appends [`hash_text`](Self::hash_text) to `out`, without building a string for
    /// the common case of an integer of at most ten digits (which `%g` with ten digits
    /// of precision writes in plain decimal).
    pub(crate) fn write_hash_text(&self, out: &mut Vec<u8>) {
        match self.0 {
            Repr::Int(i) if i.unsigned_abs() < 10_000_000_000 => write_i64(i, out),
            _ => out.extend_from_slice(self.hash_text().as_bytes()),
        }
    }

    /// go-cty's set hash string for a number: `big.Float.Text('g', 10)`.
    pub(crate) fn hash_text(&self) -> String {
        let (negative, mut d) = match &self.0 {
            Repr::Infinity { negative } => {
                return if *negative { "-Inf" } else { "+Inf" }.to_owned();
            }
            Repr::Int(i) => (
                *i < 0,
                Digits::from_integer_text(i.unsigned_abs().to_string()),
            ),
            Repr::Float(f) => {
                let (negative, m, e) = decode_f64(*f);
                let d = if m == 0 {
                    Digits::zero()
                } else {
                    Digits::exact(&BigUint::from(m), e)
                };
                (negative, d)
            }
            Repr::Decimal(dec) => {
                let (k, scale) = dec.as_bigint_and_scale();
                let mut d = Digits::from_integer_text(k.magnitude().to_string());
                d.exp -= scale;
                if d.is_tie_at(10) {
                    // go-cty holds this decimal rounded to 512 bits; which side of the tie
                    // that lands on decides the rounding.
                    match round_512_direction(k.magnitude(), scale) {
                        Ordering::Greater => d.round_up(10),
                        Ordering::Less => d.round_down(10),
                        Ordering::Equal => d.round(10),
                    }
                }
                (k.sign() == Sign::Minus, d)
            }
        };
        d.round(10);
        let mut out = String::new();
        if negative {
            out.push('-');
        }
        d.write_g(&mut out, Some(10));
        out
    }

    /// go-cty's `Text('g', -1)`, which is also how Go's `%v` and `%#v` print a number:
    /// the shortest digits that identify it at its own precision (53 bits for a float64,
    /// every digit for a decimal), in `%e` form (`1.5e+06`) when the exponent is below -4
    /// or at least 6; `+Inf` and `-Inf`.
    pub(crate) fn go_text_g(&self) -> String {
        let (negative, d) = match &self.0 {
            Repr::Infinity { negative } => {
                return if *negative { "-Inf" } else { "+Inf" }.to_owned();
            }
            Repr::Int(i) => (
                *i < 0,
                Digits::from_integer_text(i.unsigned_abs().to_string()),
            ),
            Repr::Float(f) if *f == 0.0 => (f.is_sign_negative(), Digits::zero()),
            Repr::Float(f) => (*f < 0.0, shortest_digits(*f)),
            Repr::Decimal(dec) => {
                let (k, scale) = dec.as_bigint_and_scale();
                let mut d = Digits::from_integer_text(k.magnitude().to_string());
                d.exp -= scale;
                (k.sign() == Sign::Minus, d)
            }
        };
        let mut out = String::new();
        if negative {
            out.push('-');
        }
        if d.d.is_empty() {
            out.push('0');
        } else {
            d.write_g(&mut out, None);
        }
        out
    }

    /// Whether this finite number is exactly a float64's value (as go-cty's
    /// `big.Float.Float64` reports an exact conversion).
    pub(crate) fn is_exact_f64(&self) -> bool {
        match &self.0 {
            Repr::Float(_) => true,
            Repr::Infinity { .. } => false,
            _ => Number::from_f64(self.to_f64())
                .is_some_and(|f| f.cmp_numeric(self) == Ordering::Equal),
        }
    }

    /// What the MessagePack encoder writes for this number.
    #[inline]
    pub(crate) fn wire(&self) -> WireNumber<'_> {
        match &self.0 {
            Repr::Infinity { negative } => WireNumber::Float(if *negative {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }),
            Repr::Int(i) => WireNumber::Int(*i),
            Repr::Float(f) => match f64_to_i64_exact(*f) {
                Some(i) => WireNumber::Int(i),
                None => WireNumber::Float(*f),
            },
            Repr::Decimal(d) => {
                if decimal_is_f64_fraction(d) {
                    WireNumber::Float(self.to_f64())
                } else {
                    WireNumber::Text(Cow::Owned(self.to_string()))
                }
            }
        }
    }
}

/// Appends the decimal digits of `i` (with `-` when negative) to `out`.
fn write_i64(i: i64, out: &mut Vec<u8>) {
    if i < 0 {
        out.push(b'-');
    }
    let mut digits = [0u8; 20];
    let mut n = i.unsigned_abs();
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

/// Whether a decimal is a non-integer exactly equal to some float64.
fn decimal_is_f64_fraction(d: &BigDecimal) -> bool {
    let (k, scale) = d.as_bigint_and_scale();
    // K × 10^-s is m × 2^-s with m = K / 5^s; m must be an integer (K ends in 5) of at
    // most 53 bits, and 2^-s at least the smallest subnormal.
    if scale <= 0 || scale > 1074 {
        return false;
    }
    let k = k.magnitude();
    if (k % 10u32).to_u32() != Some(5) {
        return false;
    }
    let p = pow_u(5, scale as u32);
    if !(k % &p).is_zero() {
        return false;
    }
    (k / p).bits() <= 53
}

/// Exact comparison of an integer with a finite float64.
fn cmp_i64_f64(i: i64, f: f64) -> Ordering {
    if f >= 9_223_372_036_854_775_808.0 {
        return Ordering::Less;
    }
    if f < -9_223_372_036_854_775_808.0 {
        return Ordering::Greater;
    }
    let t = f.trunc();
    match i.cmp(&(t as i64)) {
        Ordering::Equal => 0.0.partial_cmp(&(f - t)).unwrap_or(Ordering::Equal),
        o => o,
    }
}

/// Which side of v = K × 10^-scale (K > 0) Go's 512-bit nearest-even rounding lands on:
/// `Equal` when v is exact at 512 bits.
fn round_512_direction(k: &BigUint, scale: i64) -> Ordering {
    let (num, den) = if scale <= 0 {
        (k * pow_u(10, (-scale) as u32), BigUint::from(1u32))
    } else {
        (k.clone(), pow_u(10, scale as u32))
    };
    // q = num × 2^shift / den has 512 or 513 bits.
    let shift = 512 - (num.bits() as i64 - den.bits() as i64);
    let (num, den) = if shift >= 0 {
        (num << shift as usize, den)
    } else {
        (num, den << (-shift) as usize)
    };
    let mut q = &num / &den;
    let mut rem = num - &q * &den;
    let mut den = den;
    if q.bits() > 512 {
        if q.bit(0) {
            rem += &den;
        }
        q >>= 1;
        den <<= 1;
    }
    if rem.is_zero() {
        return Ordering::Equal;
    }
    match (rem << 1usize).cmp(&den) {
        Ordering::Greater => Ordering::Greater,
        Ordering::Less => Ordering::Less,
        Ordering::Equal => {
            if q.bit(0) {
                Ordering::Greater
            } else {
                Ordering::Less
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Decimal digit strings, Go's `decimal` model

/// Significant decimal digits (ASCII, no trailing zeros) and the point position:
/// value = 0.DIGITS × 10^exp. No digits is zero.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Digits {
    d: Vec<u8>,
    exp: i64,
}

impl Digits {
    fn zero() -> Digits {
        Digits {
            d: Vec::new(),
            exp: 0,
        }
    }

    /// The digits of an integer's text (no sign).
    fn from_integer_text(text: String) -> Digits {
        let mut d = text.into_bytes();
        let exp = d.len() as i64;
        while d.last() == Some(&b'0') {
            d.pop();
        }
        if d.is_empty() {
            return Digits::zero();
        }
        Digits { d, exp }
    }

    /// The exact digits of m × 2^e (m > 0).
    fn exact(m: &BigUint, e: i64) -> Digits {
        if e >= 0 {
            return Digits::from_integer_text((m << e as usize).to_string());
        }
        let tz = (m.trailing_zeros().unwrap_or(0) as i64).min(-e);
        let k = -(e + tz);
        let mut d =
            Digits::from_integer_text(((m >> tz as usize) * pow_u(5, k as u32)).to_string());
        d.exp -= k;
        d
    }

    fn at(&self, i: i64) -> u8 {
        if i >= 0 && (i as usize) < self.d.len() {
            self.d[i as usize]
        } else {
            b'0'
        }
    }

    /// Whether rounding to `n` digits is an exact tie (digit n is the last, and a 5).
    fn is_tie_at(&self, n: usize) -> bool {
        self.d.len() == n + 1 && self.d[n] == b'5'
    }

    /// Rounds to at most `n` digits, to nearest, ties to even.
    fn round(&mut self, n: usize) {
        if n >= self.d.len() {
            return;
        }
        let up = if self.is_tie_at(n) {
            n > 0 && (self.d[n - 1] - b'0') % 2 == 1
        } else {
            self.d[n] >= b'5'
        };
        if up {
            self.round_up(n);
        } else {
            self.round_down(n);
        }
    }

    fn round_up(&mut self, n: usize) {
        if n >= self.d.len() {
            return;
        }
        let mut n = n;
        while n > 0 && self.d[n - 1] == b'9' {
            n -= 1;
        }
        if n == 0 {
            self.d.clear();
            self.d.push(b'1');
            self.exp += 1;
        } else {
            self.d[n - 1] += 1;
            self.d.truncate(n);
        }
    }

    fn round_down(&mut self, n: usize) {
        if n >= self.d.len() {
            return;
        }
        self.d.truncate(n);
        while self.d.last() == Some(&b'0') {
            self.d.pop();
        }
        if self.d.is_empty() {
            self.exp = 0;
        }
    }

    /// Go's `%f` with as many fraction digits as needed (`Text('f', -1)` after shortest
    /// rounding). No sign.
    fn write_f<W: fmt::Write>(&self, out: &mut W) -> fmt::Result {
        let len = self.d.len() as i64;
        if self.exp > 0 {
            let m = len.min(self.exp) as usize;
            out.write_str(ascii(&self.d[..m]))?;
            write_zeros(out, (self.exp - m as i64) as usize)?;
        } else {
            out.write_char('0')?;
        }
        let frac = (len - self.exp).max(0);
        if frac > 0 {
            out.write_char('.')?;
            for i in 0..frac {
                out.write_char(char::from(self.at(self.exp + i)))?;
            }
        }
        Ok(())
    }

    /// Go's `%g` after rounding to `prec` digits (`Text('g', prec)`), or of the shortest
    /// digits when `prec` is `None` (`Text('g', -1)`, which takes `%e` from an exponent of
    /// 6). No sign.
    fn write_g(&self, out: &mut String, prec: Option<usize>) {
        let len = self.d.len() as i64;
        let eprec = match prec.map(|p| p as i64) {
            None => 6,
            Some(p) if p > len && len >= self.exp => len,
            Some(p) => p,
        };
        let x = self.exp - 1;
        if x < -4 || x >= eprec {
            // %e: first digit, the rest after a point, then the exponent.
            out.push(char::from(self.at(0)));
            if self.d.len() > 1 {
                out.push('.');
                out.push_str(ascii(&self.d[1..]));
            }
            let x = if self.d.is_empty() { 0 } else { x };
            let _ = write!(
                out,
                "e{}{:02}",
                if x < 0 { '-' } else { '+' },
                x.unsigned_abs()
            );
        } else {
            let _ = self.write_f(out);
        }
    }
}

fn ascii(b: &[u8]) -> &str {
    std::str::from_utf8(b).unwrap_or("")
}

fn write_zeros<W: fmt::Write>(out: &mut W, mut n: usize) -> fmt::Result {
    const ZEROS: &str = "00000000000000000000000000000000";
    while n > 0 {
        let k = n.min(ZEROS.len());
        out.write_str(&ZEROS[..k])?;
        n -= k;
    }
    Ok(())
}

/// Go's shortest digits for a float64 held in a 53-bit `big.Float` (`roundShortest`): the
/// fewest digits inside [x - ulp/2, x + ulp/2] (bounds allowed when the mantissa is even),
/// with the ulp of a 53-bit mantissa even for subnormals and an interval symmetric even at
/// powers of two. |f| must be finite and nonzero.
fn go_shortest(f: f64) -> Digits {
    let (_, m, e) = decode_f64(f);
    // Normalize to a 53-bit mantissa, as big.Float does for subnormals.
    let shift = i64::from(m.leading_zeros()) - 11;
    let (m, e) = (m << shift, e - shift);
    let mut d = Digits::exact(&BigUint::from(m), e);
    let lower = Digits::exact(&BigUint::from(2 * m - 1), e - 1);
    let upper = Digits::exact(&BigUint::from(2 * m + 1), e - 1);
    let inclusive = m % 2 == 0;
    for i in 0..d.d.len() {
        let c = d.d[i];
        let l = lower.at(i as i64);
        let u = upper.at(i as i64);
        let ok_down = l != c || (inclusive && i + 1 == lower.d.len());
        let ok_up = c != u && (inclusive || c + 1 < u || i + 1 < upper.d.len());
        if ok_down && ok_up {
            d.round(i + 1);
            break;
        } else if ok_down {
            d.round_down(i + 1);
            break;
        } else if ok_up {
            d.round_up(i + 1);
            break;
        }
    }
    d
}

/// A small stack buffer for Rust's float formatting.
struct StackBuf {
    buf: [u8; 40],
    len: usize,
}

impl fmt::Write for StackBuf {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        if end > self.buf.len() {
            return Err(fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Go's shortest digits of a finite nonzero float64, through Rust's shortest formatting
/// where that is known to agree: normal floats except ties between two shortest candidates
/// and powers of two outside 2^-23..=2^63, which take [`go_shortest`].
fn shortest_digits(f: f64) -> Digits {
    let (_, m, e) = decode_f64(f);
    let power_of_two = m == 1 << 52;
    if m < 1 << 52 || (power_of_two && !(-23 - 52..=63 - 52).contains(&e)) {
        return go_shortest(f);
    }
    let mut buf = StackBuf {
        buf: [0; 40],
        len: 0,
    };
    if write!(buf, "{:e}", f.abs()).is_err() {
        return go_shortest(f);
    }
    let text = &buf.buf[..buf.len];
    let Some(epos) = text.iter().position(|&c| c == b'e') else {
        return go_shortest(f);
    };
    let digits: Vec<u8> = text[..epos]
        .iter()
        .copied()
        .filter(|&c| c != b'.')
        .collect();
    let Some(x) = ascii(&text[epos + 1..]).parse::<i64>().ok() else {
        return go_shortest(f);
    };
    let d = Digits {
        exp: x + 1,
        d: digits,
    };
    if is_shortest_tie(m, e, &d) || upper_is_short(m, e, d.d.len() + 1) {
        return go_shortest(f);
    }
    d
}

/// Whether the upper bound of the rounding interval of m × 2^e, (2m + 1) × 2^(e - 1), has
/// at most `limit` significant digits. Only then can Go's digit walk, which compares the
/// digits of the bound with those of the value, miss a shortest candidate that lies just
/// below the bound.
fn upper_is_short(m: u64, e: i64, limit: usize) -> bool {
    let mut o = 2 * m + 1;
    let j = e - 1;
    let Some(limit) = 10u128.checked_pow(limit as u32) else {
        return true;
    };
    let t = if j >= 0 {
        // Trailing zeros come from pairing factors 5 of o with the factors 2.
        let mut fives = 0;
        while fives < j && o % 5 == 0 {
            o /= 5;
            fives += 1;
        }
        let shift = j - fives;
        if shift > 70 {
            return false;
        }
        u128::from(o) << shift
    } else {
        if -j > 30 {
            return false;
        }
        match u128::from(o).checked_mul(5u128.pow((-j) as u32)) {
            Some(t) => t,
            None => return false,
        }
    };
    t < limit
}

/// Whether |x| = m × 2^e lies exactly halfway between `d` and a neighbour with as many
/// digits, in which case Go and Rust may pick different neighbours.
fn is_shortest_tie(m: u64, e: i64, d: &Digits) -> bool {
    let Some(dint) = ascii(&d.d).parse::<u64>().ok() else {
        return true;
    };
    let tz = m.trailing_zeros();
    let (m, e) = (u128::from(m >> tz), e + i64::from(tz));
    // Candidate ties: (10 × dint ± 5) × 10^q.
    let q = d.exp - d.d.len() as i64 - 1;
    if e != q || q.unsigned_abs() > 55 {
        return false;
    }
    let p5 = 5u128.pow(q.unsigned_abs() as u32);
    [10 * u128::from(dint) - 5, 10 * u128::from(dint) + 5]
        .iter()
        .any(|&t| {
            if q >= 0 {
                t.checked_mul(p5) == Some(m)
            } else {
                m.checked_mul(p5) == Some(t)
            }
        })
}

// ---------------------------------------------------------------------------------------
// Text, equality, hashing

impl fmt::Display for Number {
    /// go-cty's `Text('f', -1)`: plain decimal, never an exponent, the shortest digits that
    /// identify the number at its own precision (53 bits for a float64, every digit for a
    /// decimal), no trailing zeros, `-0` for negative zero; `+Inf` and `-Inf`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Int(i) => write!(f, "{i}"),
            Repr::Float(x) => {
                if x.is_sign_negative() {
                    f.write_char('-')?;
                }
                if *x == 0.0 {
                    f.write_char('0')
                } else {
                    shortest_digits(*x).write_f(f)
                }
            }
            Repr::Decimal(d) => {
                let (k, scale) = d.as_bigint_and_scale();
                write_plain(f, &k, scale)
            }
            Repr::Infinity { negative } => f.write_str(if *negative { "-Inf" } else { "+Inf" }),
        }
    }
}

/// Writes K × 10^-scale in plain decimal.
fn write_plain<W: fmt::Write>(out: &mut W, k: &BigInt, scale: i64) -> fmt::Result {
    if k.sign() == Sign::Minus {
        out.write_char('-')?;
    }
    let digits = k.magnitude().to_string();
    if scale <= 0 {
        out.write_str(&digits)?;
        return write_zeros(out, scale.unsigned_abs() as usize);
    }
    let scale = scale as usize;
    if digits.len() > scale {
        let (int, frac) = digits.split_at(digits.len() - scale);
        out.write_str(int)?;
        out.write_char('.')?;
        out.write_str(frac)
    } else {
        out.write_str("0.")?;
        write_zeros(out, scale - digits.len())?;
        out.write_str(&digits)
    }
}

impl fmt::Debug for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Float(_) => write!(f, "Number({self}, float64)"),
            _ => write!(f, "Number({self})"),
        }
    }
}

impl PartialEq for Number {
    /// go-cty's `Equals`: infinities equal themselves; integers compare exactly; an
    /// integer never equals a non-integer; other numbers compare by their text.
    fn eq(&self, other: &Number) -> bool {
        use Repr::*;
        match (&self.0, &other.0) {
            (Infinity { negative: a }, Infinity { negative: b }) => a == b,
            (Infinity { .. }, _) | (_, Infinity { .. }) => false,
            (Int(a), Int(b)) => a == b,
            // Two float64s print alike only if they are the same number.
            (Float(a), Float(b)) => a == b,
            (Int(a), Float(b)) | (Float(b), Int(a)) => f64_to_i64_exact(*b) == Some(*a),
            // A decimal is never an integer in i64's range.
            (Int(_), Decimal(_)) | (Decimal(_), Int(_)) => false,
            // Normalized and exact: equal values are equal texts.
            (Decimal(a), Decimal(b)) => a == b,
            (Float(f), Decimal(d)) | (Decimal(d), Float(f)) => {
                let f_int = f.fract() == 0.0;
                if f_int != (d.as_bigint_and_scale().1 <= 0) {
                    false
                } else if f_int {
                    f64_to_big_decimal(*f) == **d
                } else {
                    self.to_string() == other.to_string()
                }
            }
        }
    }
}

impl Eq for Number {}

/// Feeds formatted text to a hasher.
struct HashWriter<'a, H: Hasher>(&'a mut H);

impl<H: Hasher> fmt::Write for HashWriter<'_, H> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.write(s.as_bytes());
        Ok(())
    }
}

impl Hash for Number {
    fn hash<H: Hasher>(&self, state: &mut H) {
        if let Some(i) = self.to_i64() {
            state.write_u8(0);
            state.write_i64(i);
            return;
        }
        match &self.0 {
            Repr::Infinity { negative } => {
                state.write_u8(1);
                state.write_u8(u8::from(*negative));
            }
            Repr::Float(f) if f.fract() == 0.0 => {
                // An integer beyond i64: its exact digits, as a decimal integer hashes.
                state.write_u8(2);
                let d = f64_to_big_decimal(*f);
                let (k, scale) = d.as_bigint_and_scale();
                let _ = write_plain(&mut HashWriter(state), &k, scale);
            }
            Repr::Decimal(d) if d.as_bigint_and_scale().1 <= 0 => {
                state.write_u8(2);
                let _ = write!(HashWriter(state), "{self}");
            }
            _ => {
                state.write_u8(3);
                let _ = write!(HashWriter(state), "{self}");
            }
        }
        state.write_u8(0xff);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;

    fn p(s: &str) -> Number {
        Number::parse(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
    }

    /// As [`p`], without the limit on binary exponents: exact binary values such as
    /// `1p-1074` (the smallest float64) for tests.
    fn pb(s: &str) -> Number {
        parse_general(s, i64::MAX).unwrap_or_else(|e| panic!("{s:?}: {e}"))
    }

    fn fl(f: f64) -> Number {
        Number::from_f64(f).unwrap()
    }

    fn bits(b: u64) -> Number {
        fl(f64::from_bits(b))
    }

    fn kind(n: &Number) -> &'static str {
        match n.0 {
            Repr::Int(_) => "int",
            Repr::Float(_) => "float",
            Repr::Decimal(_) => "dec",
            Repr::Infinity { .. } => "inf",
        }
    }

    /// "0." then `zeros` zeros then `digits`.
    fn small(zeros: usize, digits: &str) -> String {
        format!("0.{}{digits}", "0".repeat(zeros))
    }

    fn hash_of(n: &Number) -> u64 {
        let mut h = DefaultHasher::new();
        n.hash(&mut h);
        h.finish()
    }

    #[test]
    fn size() {
        assert_eq!(std::mem::size_of::<Number>(), 16);
    }

    #[test]
    fn parse_accepts() {
        // (text, Display, representation)
        let table: &[(&str, &str, &str)] = &[
            ("0", "0", "int"),
            ("+0", "0", "int"),
            ("00", "0", "int"),
            ("0.000", "0", "int"),
            ("0e99999999999", "0", "int"),
            ("0e-9223372036854775808", "0", "int"),
            ("-0", "-0", "float"),
            ("-0.0", "-0", "float"),
            ("-0e5", "-0", "float"),
            ("-.0", "-0", "float"),
            ("1", "1", "int"),
            ("+1", "1", "int"),
            ("-1", "-1", "int"),
            ("007", "7", "int"),
            ("1.", "1", "int"),
            ("5.", "5", "int"),
            ("5.0", "5", "int"),
            ("1.50", "1.5", "dec"),
            (".5", "0.5", "dec"),
            ("-.5", "-0.5", "dec"),
            ("+.5", "0.5", "dec"),
            ("1e3", "1000", "int"),
            ("1E3", "1000", "int"),
            ("1e+3", "1000", "int"),
            ("1e-3", "0.001", "dec"),
            ("1e-7", "0.0000001", "dec"),
            ("100e-2", "1", "int"),
            ("1e0000000000000000000001", "10", "int"),
            ("1p10", "1024", "int"),
            ("1P10", "1024", "int"),
            ("1.5p-1", "0.75", "dec"),
            ("0.1p1", "0.2", "dec"),
            ("3p-2", "0.75", "dec"),
            ("5p1", "10", "int"),
            ("1p-10", "0.0009765625", "dec"),
            ("-1p63", "-9223372036854775808", "int"),
            ("1p63", "9223372036854775808", "dec"),
            ("1000p-3", "125", "int"),
            ("1e1", "10", "int"),
            ("Inf", "+Inf", "inf"),
            ("inf", "+Inf", "inf"),
            ("+Inf", "+Inf", "inf"),
            ("-Inf", "-Inf", "inf"),
            ("-inf", "-Inf", "inf"),
            ("9223372036854775807", "9223372036854775807", "int"),
            ("-9223372036854775808", "-9223372036854775808", "int"),
            ("9223372036854775808", "9223372036854775808", "dec"),
            ("-9223372036854775809", "-9223372036854775809", "dec"),
            ("09223372036854775807", "9223372036854775807", "int"),
            ("18446744073709551615", "18446744073709551615", "dec"),
            ("1e18", "1000000000000000000", "int"),
            ("1e19", "10000000000000000000", "dec"),
            ("1e20", "100000000000000000000", "dec"),
            ("0.1", "0.1", "dec"),
            ("0.8", "0.8", "dec"),
            ("0.30000000000000004", "0.30000000000000004", "dec"),
            ("123.4560", "123.456", "dec"),
            (
                "0.1000000000000000055511151231257827021181583404541015625",
                "0.1000000000000000055511151231257827021181583404541015625",
                "dec",
            ),
        ];
        for &(text, display, repr) in table {
            let n = p(text);
            assert_eq!(n.to_string(), display, "{text:?}");
            assert_eq!(kind(&n), repr, "{text:?}");
            assert_eq!(text.parse::<Number>().unwrap().to_string(), display);
        }
    }

    #[test]
    fn parse_rejects() {
        let table = [
            "",
            " ",
            "+",
            "-",
            ".",
            "+.",
            "-.",
            "e5",
            ".e5",
            "1e",
            "1e+",
            "1e-",
            "1p",
            "1p-",
            "1e5.5",
            "1e5e5",
            "1p5e5",
            "1e5p5",
            "1..2",
            "1.2.3",
            "--1",
            "+-1",
            "-+1",
            " 1",
            "1 ",
            "1\n",
            "1_0",
            "1_000",
            "0x10",
            "0X1p4",
            "0b1",
            "0o7",
            "INF",
            "Inf ",
            "Infinity",
            "-infinity",
            "infinity",
            "+Infinity",
            "nan",
            "NaN",
            "-nan",
            "iNf",
            "1f",
            "1d",
            "1.5f",
            "\u{661}",
            "1\u{661}",
            "\u{ff11}",
            "1,5",
            "1e5 ",
            "e",
            // Exponents that overflow int64 are refused, as Go refuses them.
            "0e9223372036854775808",
            "0e-9223372036854775809",
            "1e99999999999999999999",
        ];
        for text in table {
            let err = Number::parse(text).expect_err(text);
            assert!(
                err.to_string().starts_with("invalid number"),
                "{text:?}: {err}"
            );
        }
        assert_eq!(
            Number::parse("abc").unwrap_err().to_string(),
            "invalid number \"abc\""
        );
        let long = format!("x{}", "1".repeat(100));
        assert_eq!(
            Number::parse(&long).unwrap_err().to_string(),
            format!("invalid number \"x{}...\"", "1".repeat(39))
        );
    }

    #[test]
    fn limits() {
        let too_long = "number text longer than 4096 bytes";
        let text = "1".repeat(MAX_NUMBER_TEXT + 1);
        assert_eq!(Number::parse(&text).unwrap_err().to_string(), too_long);
        let text = format!("0.{}", "0".repeat(MAX_NUMBER_TEXT));
        assert_eq!(Number::parse(&text).unwrap_err().to_string(), too_long);
        // Exactly at the limit.
        let text = "9".repeat(MAX_NUMBER_TEXT);
        assert_eq!(p(&text).to_string(), text);
        assert_eq!(p("1e4095").to_string().len(), 4096);
        assert_eq!(p("1e-4094").to_string().len(), 4096);
        assert_eq!(p("-1e4094").to_string().len(), 4096);
        // 2^128 / 10^40: a positive binary and a negative decimal exponent.
        let n = p("0.0000000000000000000000000000000000000001p128");
        assert_eq!(n.to_string(), "0.0340282366920938463463374607431768211456");
        // 10^40 / 2^128.
        let n = p("10000000000000000000000000000000000000000p-128");
        assert_eq!(
            n.to_string(),
            "29.3873587705571876992184134305561419454666389193021880377187926569604314863681793212890625"
        );
        // A binary exponent within its limit can still make the text too long.
        let text = format!("{}p100", "9".repeat(4090));
        assert!(Number::parse(&text).unwrap_err().is_limit_exceeded());
        // Binary exponents beyond MAX_BINARY_EXPONENT are refused before anything is
        // computed, whatever the value.
        for text in ["1p129", "1p-129", "0p1000", "1p-4094", "1p13606", "1p-4000"] {
            let err = Number::parse(text).expect_err(text);
            assert!(err.is_limit_exceeded(), "{text}");
            assert_eq!(
                err.to_string(),
                format!(
                    "number {text:?} has a binary exponent beyond the limit of 128 in magnitude"
                )
            );
        }
        assert_eq!(p("1p128").to_string().len(), 39);
        assert_eq!(p("1p-128").to_string().len(), 130);
        // Factors of two and five in the mantissa cancel.
        assert_eq!(p("1024p-10").to_string(), "1");
        assert_eq!(p("0.000000000931322574615478515625p30").to_string(), "1");
        assert_eq!(p("0.000000000931322574615478515625p29").to_string(), "0.5");
        // Values whose plain text would be too long, refused before expansion.
        let hostile = [
            format!("0.{}1p999999999999", "0".repeat(4000)),
            format!("1{}p-999999999999", "0".repeat(4000)),
            format!("{}p-13607", "5".repeat(4000)),
            format!("{}p9999", "9".repeat(4000)),
        ];
        for text in hostile.iter().map(String::as_str).chain([
            "1e4096",
            "-1e4095",
            "1e-4095",
            "1p-4095",
            "1p13607",
            "1p-13607",
            "1e100000",
            "1e-100000",
            "1p100000",
            "1p-100000",
            "1e999999999999",
            "1e-999999999999",
            "1p999999999999",
            "1p-999999999999",
            "1e9223372036854775807",
            "1e-9223372036854775808",
            "1p9223372036854775807",
            "1p-9223372036854775808",
        ]) {
            let err = Number::parse(text).expect_err(text);
            assert!(
                err.to_string()
                    .ends_with("longer than 4096 bytes in plain decimal form")
                    || err
                        .to_string()
                        .ends_with("binary exponent beyond the limit of 128 in magnitude"),
                "{text}: {err}"
            );
            assert!(err.is_limit_exceeded(), "{text}");
        }
        assert!(Number::parse("1e100000").unwrap_err().is_limit_exceeded());
        assert!(Number::parse(&"1".repeat(5000))
            .unwrap_err()
            .is_limit_exceeded());
        assert!(!Number::parse("1e").unwrap_err().is_limit_exceeded());
        assert!(!Number::try_from(f64::NAN).unwrap_err().is_limit_exceeded());
        assert_eq!(
            Number::parse("1e100000").unwrap_err().to_string(),
            "number \"1e100000\" is longer than 4096 bytes in plain decimal form"
        );
    }

    #[test]
    fn display() {
        let max = format!("17976931348623157{}", "0".repeat(292));
        let table: Vec<(Number, String)> = vec![
            (fl(0.1), "0.1".into()),
            (fl(0.1 + 0.2), "0.30000000000000004".into()),
            (fl(1.0), "1".into()),
            (fl(-2.5), "-2.5".into()),
            (fl(0.0), "0".into()),
            (fl(-0.0), "-0".into()),
            (p("-0"), "-0".into()),
            (fl(1e-7), "0.0000001".into()),
            (fl(1e20), "100000000000000000000".into()),
            (fl(1e21), "1000000000000000000000".into()),
            (fl(1e23), "100000000000000000000000".into()),
            (fl(2f64.powi(60)), "1152921504606847000".into()),
            (fl(2f64.powi(63)), "9223372036854776000".into()),
            // Go's interval is symmetric at powers of two, so it finds shorter digits.
            (fl(2f64.powi(64)), "18446744073709550000".into()),
            (fl(2f64.powi(-25)), "0.00000002980232238769531".into()),
            (fl(2f64.powi(-1019)), small(306, "1780059086805761")),
            (fl(2f64.powi(-1022)), small(307, "22250738585072014")),
            (fl(1e300), format!("1{}", "0".repeat(300))),
            (fl(f64::MAX), max.clone()),
            (fl(-f64::MAX), format!("-{max}")),
            // Subnormals: shortest digits at 53-bit precision.
            (fl(5e-324), small(323, "4940656458412465")),
            (fl(-5e-324), format!("-{}", small(323, "4940656458412465"))),
            (bits(0x64), small(321, "49406564584124654")),
            (bits(0x000f_ffff_ffff_ffff), small(307, "2225073858507201")),
            // Ties between two shortest candidates go to even.
            (bits(0x4311_e52f_96e3_bb71), "1259266790452956.2".into()),
            // Go's digit walk misses a nearer candidate below a short upper bound.
            (bits(0x4390_1985_eec8_433f), "290026409908293560".into()),
            (bits(0x4396_1ef4_97ce_bf17), "398495062745400760".into()),
            (p("1e3"), "1000".into()),
            (p("1.50"), "1.5".into()),
            (p(".5"), "0.5".into()),
            (p("1e-7"), "0.0000001".into()),
            (p("1e400"), format!("1{}", "0".repeat(400))),
            (p("-1e-400"), format!("-{}", small(399, "1"))),
            (Number::from(u64::MAX), "18446744073709551615".into()),
            (
                Number::from(10_000_000_000_000_000_000u64),
                "10000000000000000000".into(),
            ),
            (Number::from(i64::MIN), "-9223372036854775808".into()),
            (Number::infinity(), "+Inf".into()),
            (Number::neg_infinity(), "-Inf".into()),
            (fl(f64::INFINITY), "+Inf".into()),
            (fl(f64::NEG_INFINITY), "-Inf".into()),
        ];
        for (n, want) in table {
            assert_eq!(n.to_string(), want, "{n:?}");
        }
    }

    #[test]
    fn debug() {
        assert_eq!(format!("{:?}", fl(0.1)), "Number(0.1, float64)");
        assert_eq!(format!("{:?}", p("0.1")), "Number(0.1)");
        assert_eq!(format!("{:?}", Number::from(5)), "Number(5)");
        assert_eq!(format!("{:?}", Number::neg_infinity()), "Number(-Inf)");
    }

    #[test]
    fn wire() {
        use WireNumber::{Float, Int, Text};
        let table: Vec<(Number, WireNumber<'static>)> = vec![
            (Number::from(1), Int(1)),
            (p("1"), Int(1)),
            (fl(1.0), Int(1)),
            (fl(-0.0), Int(0)),
            (p("-0"), Int(0)),
            (fl(1e18), Int(1_000_000_000_000_000_000)),
            (fl(-(2f64.powi(63))), Int(i64::MIN)),
            (p("-9223372036854775808"), Int(i64::MIN)),
            (p("5.0"), Int(5)),
            (p("1e3"), Int(1000)),
            (fl(1.5), Float(1.5)),
            (p("1.5"), Float(1.5)),
            (p("0.25"), Float(0.25)),
            (p("-0.5"), Float(-0.5)),
            (p("1.5p-1"), Float(0.75)),
            (pb("1p-1074"), Float(5e-324)),
            (fl(0.1), Float(0.1)),
            (fl(5e-324), Float(5e-324)),
            (fl(2f64.powi(63)), Float(2f64.powi(63))),
            (fl(1e20), Float(1e20)),
            (fl(f64::MAX), Float(f64::MAX)),
            (Number::infinity(), Float(f64::INFINITY)),
            (Number::neg_infinity(), Float(f64::NEG_INFINITY)),
            (p("0.1"), Text("0.1".into())),
            (p("0.8"), Text("0.8".into())),
            (p("9223372036854775808"), Text("9223372036854775808".into())),
            (
                p("-9223372036854775809"),
                Text("-9223372036854775809".into()),
            ),
            (Number::from(u64::MAX), Text("18446744073709551615".into())),
            (p("1e20"), Text("100000000000000000000".into())),
            (p("1e400"), Text(format!("1{}", "0".repeat(400)).into())),
            // Exactly a float64 but an integer: text, as go-cty.
            (p("1p63"), Text("9223372036854775808".into())),
            // More than 53 bits, or below the smallest subnormal.
            (
                p("1.00000000000000011102230246251565404236316680908203125"),
                Text("1.00000000000000011102230246251565404236316680908203125".into()),
            ),
            (pb("1p-1075"), Text(pb("1p-1075").to_string().into())),
            (p("0.3"), Text("0.3".into())),
        ];
        for (n, want) in table {
            assert_eq!(n.wire(), want, "{n:?}");
        }
        // 2^-1 + 2^-54 needs 54 bits: not a float64.
        let n = p("1p-1").to_big_decimal().unwrap() + p("1p-54").to_big_decimal().unwrap();
        let n = p(&n.to_string());
        assert!(matches!(n.wire(), WireNumber::Text(_)));
    }

    #[test]
    fn equality() {
        let f = |x: f64| fl(x);
        let equal = [
            (f(0.1), p("0.1")),
            (f(0.1 + 0.2), p("0.30000000000000004")),
            (f(1e20), p("1e20")),
            (f(1e20), p("100000000000000000000")),
            (f(2f64.powi(63)), p("9223372036854775808")),
            (f(-0.0), p("0")),
            (f(-0.0), f(0.0)),
            (p("-0"), Number::zero()),
            (p("-0"), Number::from(0u8)),
            (f(1.0), Number::from(1)),
            (f(5.0), p("5.0")),
            (p("1.50"), p("1.5")),
            (p("1e3"), Number::from(1000)),
            (f(1.5), p("1.5")),
            (f(1e21), p("1e21")),
            (Number::from(u64::MAX), p("18446744073709551615")),
            (Number::infinity(), f(f64::INFINITY)),
            (Number::infinity(), p("+Inf")),
            (Number::infinity(), p("Inf")),
            (Number::neg_infinity(), p("-inf")),
            (f(5e-324), p(&f(5e-324).to_string())),
        ];
        for (a, b) in &equal {
            assert_eq!(a, b);
            assert_eq!(b, a);
            assert_eq!(hash_of(a), hash_of(b), "{a:?} {b:?}");
        }
        let unequal = [
            (f(0.1 + 0.2), p("0.3")),
            // The float's exact value is not 10^300.
            (f(1e300), p("1e300")),
            (f(1e23), p("1e23")),
            (f(2f64.powi(63)), p("9223372036854776000")),
            (
                f(0.1),
                p("0.1000000000000000055511151231257827021181583404541015625"),
            ),
            (Number::from(1), p("1.0000000000000000000001")),
            (Number::from(1), Number::from(2)),
            (Number::from(-1), Number::from(1)),
            (Number::infinity(), Number::neg_infinity()),
            (Number::infinity(), f(f64::MAX)),
            (Number::neg_infinity(), p("-1e400")),
            (p("0.5"), p("-0.5")),
            (f(0.5), f(-0.5)),
            (p("1e-400"), Number::zero()),
            (f(5e-324), Number::zero()),
        ];
        for (a, b) in &unequal {
            assert_ne!(a, b);
            assert_ne!(b, a);
        }
    }

    #[test]
    fn cmp_numeric() {
        use Ordering::{Equal, Greater, Less};
        let table = [
            (Number::neg_infinity(), fl(-f64::MAX), Less),
            (Number::neg_infinity(), p("-1e400"), Less),
            (Number::neg_infinity(), Number::neg_infinity(), Equal),
            (Number::infinity(), Number::infinity(), Equal),
            (Number::infinity(), Number::neg_infinity(), Greater),
            (Number::infinity(), p("1e400"), Greater),
            (fl(-0.0), Number::zero(), Equal),
            (p("-0"), fl(0.0), Equal),
            (Number::from(1), fl(1.0), Equal),
            (Number::from(1), fl(1.5), Less),
            (Number::from(2), fl(1.5), Greater),
            (Number::from(-1), fl(-1.5), Greater),
            (Number::from(i64::MAX), fl(2f64.powi(63)), Less),
            (Number::from(i64::MIN), fl(-(2f64.powi(63))), Equal),
            (Number::from(i64::MIN), fl(-1e300), Greater),
            (fl(0.1), p("0.1"), Greater),
            (fl(0.3), p("0.3"), Less),
            (fl(1e300), p("1e300"), Greater),
            (fl(2f64.powi(63)), p("9223372036854775808"), Equal),
            (p("1.5"), p("1.50"), Equal),
            (p("-1.5"), p("1.5"), Less),
            (p("9223372036854775808"), Number::from(i64::MAX), Greater),
            (p("-9223372036854775809"), Number::from(i64::MIN), Less),
            (p("1e-400"), Number::zero(), Greater),
            (p("1e-400"), fl(5e-324), Less),
            (fl(5e-324), fl(0.0), Greater),
            (Number::from(-1), Number::from(10), Less),
            (p("1e21"), p("9"), Greater),
        ];
        for (a, b, want) in table {
            assert_eq!(a.cmp_numeric(&b), want, "{a:?} {b:?}");
            assert_eq!(b.cmp_numeric(&a), want.reverse(), "{b:?} {a:?}");
        }
    }

    #[test]
    fn write_text_matches_display() {
        let mut numbers: Vec<Number> = [0i64, 1, -1, 42, i64::MAX, i64::MIN, -1_000_000]
            .into_iter()
            .map(Number::from)
            .collect();
        numbers.extend([0.1, -0.0, 1e300, 2.5e-8].map(|f| Number::from_f64(f).unwrap()));
        numbers.extend(["0.1", "123456789012345678901234567890.5"].map(|t| t.parse().unwrap()));
        for n in numbers {
            let mut out = Vec::new();
            n.write_text(&mut out);
            assert_eq!(String::from_utf8(out).unwrap(), n.to_string(), "{n:?}");
        }
    }

    #[test]
    fn write_hash_text_matches_hash_text() {
        let mut ints: Vec<i64> = vec![0, 1, -1, 9, 10, 99, 100, 1000, i64::MAX, i64::MIN];
        for p in 1..19u32 {
            let t = 10i64.pow(p);
            ints.extend([t - 1, t, t + 1, -t + 1, -t, -t - 1, 7 * t / 3]);
        }
        for i in ints {
            let n = Number::from(i);
            let mut out = Vec::new();
            n.write_hash_text(&mut out);
            assert_eq!(String::from_utf8(out).unwrap(), n.hash_text(), "{i}");
        }
    }

    #[test]
    fn hash_text() {
        // Checked against Go's big.Float Text('g', 10).
        let table: Vec<(Number, &str)> = vec![
            (p("1"), "1"),
            (p("1.5"), "1.5"),
            (p("10"), "10"),
            (p("100"), "100"),
            (p("1e21"), "1e+21"),
            (p("0.0001"), "0.0001"),
            (p("0.00001"), "1e-05"),
            (p("1.5e-5"), "1.5e-05"),
            (p("12345678901"), "1.23456789e+10"),
            (p("12345678902"), "1.23456789e+10"),
            (p("123456"), "123456"),
            (p("1234567"), "1234567"),
            (p("1234567.5"), "1234567.5"),
            (p("1234567890.5"), "1234567890"),
            (p("123456789"), "123456789"),
            (p("1234567891"), "1234567891"),
            (p("1000000000"), "1000000000"),
            (p("1.5e9"), "1500000000"),
            (p("1e10"), "1e+10"),
            (p("1e100"), "1e+100"),
            (p("1e400"), "1e+400"),
            (p("0.123456789012"), "0.123456789"),
            (p("99999999995"), "1e+11"),
            (p("99999999985"), "9.999999998e+10"),
            (p("9999999999.5"), "1e+10"),
            (p("0.000099999999995"), "9.999999999e-05"),
            (p("9223372036854775808"), "9.223372037e+18"),
            (p("-9223372036854775809"), "-9.223372037e+18"),
            (p("18446744073709551615"), "1.844674407e+19"),
            (p("-12345678905"), "-1.23456789e+10"),
            // A decimal tie is decided by go-cty's 512-bit approximation.
            (p("1.0000000005"), "1"),
            (p("1.0000000015"), "1.000000002"),
            (p("1.0000000025"), "1.000000002"),
            (p("12345.678905"), "12345.6789"),
            (p("1.2345678905e250"), "1.234567891e+250"),
            (p("1.2345678905e-250"), "1.234567891e-250"),
            (p("-2.5"), "-2.5"),
            (p("0"), "0"),
            (p("-0"), "-0"),
            (fl(0.0), "0"),
            (fl(-0.0), "-0"),
            (Number::from(12_345_678_905_i64), "1.23456789e+10"),
            (Number::from(12_345_678_915_i64), "1.234567892e+10"),
            (fl(12_345_678_905.0), "1.23456789e+10"),
            (fl(0.1), "0.1"),
            (fl(0.3), "0.3"),
            (fl(0.1 + 0.2), "0.3"),
            (fl(1.0 / 3.0), "0.3333333333"),
            (fl(2.0 / 3.0), "0.6666666667"),
            (fl(1e21), "1e+21"),
            (fl(2.5e-5), "2.5e-05"),
            (fl(5e-324), "4.940656458e-324"),
            (fl(f64::MAX), "1.797693135e+308"),
            (fl(2f64.powi(64)), "1.844674407e+19"),
            (Number::infinity(), "+Inf"),
            (Number::neg_infinity(), "-Inf"),
        ];
        for (n, want) in table {
            assert_eq!(n.hash_text(), want, "{n:?}");
        }
    }

    #[test]
    fn conversions() {
        assert_eq!(Number::from(-5i8).to_i64(), Some(-5));
        assert_eq!(Number::from(300i16).to_i64(), Some(300));
        assert_eq!(Number::from(-7i32).to_i64(), Some(-7));
        assert_eq!(Number::from(7u8).to_u64(), Some(7));
        assert_eq!(Number::from(7u16).to_u64(), Some(7));
        assert_eq!(Number::from(u32::MAX).to_u64(), Some(u64::from(u32::MAX)));
        assert_eq!(Number::from(12usize).to_u64(), Some(12));
        assert_eq!(Number::from(u64::MAX).to_u64(), Some(u64::MAX));
        assert_eq!(Number::from(u64::MAX).to_i64(), None);
        assert_eq!(Number::from(1u64 << 63).to_u64(), Some(1 << 63));
        assert_eq!(Number::from(i64::MIN).to_u64(), None);
        assert_eq!(p("1e19").to_u64(), Some(10_000_000_000_000_000_000));
        assert_eq!(p("1e20").to_u64(), None);
        assert_eq!(p("1.5").to_i64(), None);
        assert_eq!(p("-0").to_i64(), Some(0));
        assert_eq!(p("-0").to_u64(), Some(0));
        assert_eq!(fl(3.0).to_i64(), Some(3));
        assert_eq!(fl(3.5).to_i64(), None);
        assert_eq!(fl(-3.0).to_u64(), None);
        assert_eq!(fl(2f64.powi(63)).to_i64(), None);
        assert_eq!(fl(2f64.powi(63)).to_u64(), Some(1 << 63));
        assert_eq!(fl(2f64.powi(64)).to_u64(), None);
        assert_eq!(Number::infinity().to_i64(), None);

        assert_eq!(p("0.1").to_f64(), 0.1);
        assert_eq!(p("1e400").to_f64(), f64::INFINITY);
        assert_eq!(p("-1e400").to_f64(), f64::NEG_INFINITY);
        assert_eq!(p("1e-400").to_f64(), 0.0);
        assert_eq!(p("9223372036854775809").to_f64(), 2f64.powi(63));
        assert_eq!(pb("1p-1074").to_f64(), 5e-324);
        // Halfway between 1 and the next float64, plus a little: rounds up.
        let above_half = p("1.00000000000000011102230246251565404236316680908203125000001");
        assert_eq!(above_half.to_f64(), 1.0 + f64::EPSILON);
        assert_eq!(Number::from(i64::MAX).to_f64(), 2f64.powi(63));
        assert_eq!(fl(-0.0).to_f64().to_bits(), (-0.0f64).to_bits());
        assert_eq!(Number::neg_infinity().to_f64(), f64::NEG_INFINITY);

        let exact = fl(0.1).to_big_decimal().unwrap();
        assert_eq!(
            exact.to_string(),
            "0.1000000000000000055511151231257827021181583404541015625"
        );
        assert_eq!(
            fl(1e20).to_big_decimal().unwrap(),
            p("1e20").to_big_decimal().unwrap()
        );
        assert_eq!(
            p("-2.5").to_big_decimal().unwrap(),
            BigDecimal::new((-25).into(), 1)
        );
        assert_eq!(
            Number::from(-3).to_big_decimal().unwrap(),
            BigDecimal::from(-3)
        );
        assert!(fl(-0.0).to_big_decimal().unwrap().is_zero());
        assert_eq!(Number::infinity().to_big_decimal(), None);

        assert!(Number::from_f64(f64::NAN).is_none());
        assert_eq!(
            Number::try_from(f64::NAN).unwrap_err().to_string(),
            "NaN is not a number"
        );
        assert_eq!(Number::try_from(2.5).unwrap(), p("2.5"));
        assert!(Number::try_from(f64::INFINITY).unwrap().is_infinite());
        assert_eq!(Number::default(), Number::zero());
    }

    #[test]
    fn predicates() {
        // (number, infinite, integer, negative, float origin)
        let table = [
            (Number::zero(), false, true, false, false),
            (p("-0"), false, true, false, true),
            (fl(-0.0), false, true, false, true),
            (fl(1.0), false, true, false, true),
            (fl(-1.5), false, false, true, true),
            (fl(1e300), false, true, false, true),
            (fl(5e-324), false, false, false, true),
            (p("1e3"), false, true, false, false),
            (p("1e30"), false, true, false, false),
            (p("-1.5"), false, false, true, false),
            (p("-1e30"), false, true, true, false),
            (Number::from(-3), false, true, true, false),
            (Number::infinity(), true, false, false, false),
            (Number::neg_infinity(), true, false, true, false),
            (fl(f64::NEG_INFINITY), true, false, true, false),
        ];
        for (n, inf, int, neg, float) in table {
            assert_eq!(n.is_infinite(), inf, "{n:?}");
            assert_eq!(n.is_integer(), int, "{n:?}");
            assert_eq!(n.is_negative(), neg, "{n:?}");
            assert_eq!(n.is_float_origin(), float, "{n:?}");
        }
    }

    /// The fast path through Rust's float formatting gives Go's digits.
    #[test]
    fn shortest_fast_path_matches_go_algorithm() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let check = |f: f64| {
            assert_eq!(shortest_digits(f), go_shortest(f), "{:016x}", f.to_bits());
        };
        // Every power of two, subnormal and normal.
        for k in 0..52 {
            check(f64::from_bits(1 << k));
        }
        for e in 1..2047_u64 {
            check(f64::from_bits(e << 52));
        }
        for _ in 0..10_000 {
            let r = next();
            let exp = (r >> 52) & 0x7ff;
            if exp == 0x7ff || r & !(1 << 63) == 0 {
                continue;
            }
            check(f64::from_bits(r));
            // Few mantissa bits and moderate exponents: ties and short bounds.
            let e = 1023 - 30 + (r >> 58) * 2;
            check(f64::from_bits((e << 52) | ((r & 0xffff) << 36)));
        }
        for b in [
            0x4311_e52f_96e3_bb71_u64,
            0x4390_1985_eec8_433f,
            0x4396_1ef4_97ce_bf17,
        ] {
            check(f64::from_bits(b));
        }
    }
}

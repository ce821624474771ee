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
/// decimal text (so float64 `0.1` equals decimal `0.1`), and `-0` equals `0`.
///
/// The order (`Ord`, `PartialOrd`) agrees with that equality: numbers compare by value,
/// where the value of a float64 that is not an integer is the decimal it prints as (float64
/// `0.1` counts as `0.1`, not as its exact binary value `0.1000000000000000055...`).
/// Negative infinity is below every other number and positive infinity above; `-0`
/// equals `0`. Between two float64s, two integers, or an integer and a float64, the order
/// is the exact numeric one; [`Number::cmp_numeric`] is the exact order everywhere (Go's
/// `big.Float.Cmp`), which can call unequal numbers equal and equal numbers unequal.
///
/// ```
/// use ctywire::Number;
///
/// let f = |x: f64| Number::from_f64(x).unwrap();
/// let d = |t: &str| t.parse::<Number>().unwrap();
/// let mut numbers = vec![d("0.25"), Number::infinity(), f(-1.5), Number::from(3), f(-0.0)];
/// numbers.sort();
/// assert_eq!(numbers, [f(-1.5), Number::zero(), d("0.25"), Number::from(3), Number::infinity()]);
/// assert_eq!(f(0.1).cmp(&d("0.1")), std::cmp::Ordering::Equal);
/// assert_eq!(f(0.1).cmp_numeric(&d("0.1")), std::cmp::Ordering::Greater);
/// ```
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

mod digits;
mod error;
mod parse;
#[cfg(test)]
mod tests;

use digits::*;
pub use error::NumberError;
use parse::*;

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

impl Ord for Number {
    /// By value, as equality sees it: see [`Number`].
    fn cmp(&self, other: &Number) -> Ordering {
        use Repr::*;
        match (&self.0, &other.0) {
            // Exact, and what equality says for these pairs.
            (Int(a), Int(b)) => a.cmp(b),
            (Float(a), Float(b)) => a.partial_cmp(b).unwrap_or(Ordering::Equal),
            (Int(a), Float(b)) => cmp_i64_f64(*a, *b),
            (Float(a), Int(b)) => cmp_i64_f64(*b, *a).reverse(),
            (Infinity { .. }, _) | (_, Infinity { .. }) => self.cmp_numeric(other),
            _ => match (self.equality_value(), other.equality_value()) {
                (Some(a), Some(b)) => a.cmp(&b),
                _ => Ordering::Equal,
            },
        }
    }
}

impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Number) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Number {
    /// The value equality compares: the exact value, except that a float64 which is not
    /// an integer counts as the decimal it prints as. `None` for the infinities.
    fn equality_value(&self) -> Option<BigDecimal> {
        match &self.0 {
            Repr::Float(f) if f.fract() != 0.0 => self.to_string().parse().ok(),
            _ => self.to_big_decimal(),
        }
    }
}

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

//! TEMPORARY STUB (replaced by the real implementation).
#![allow(missing_docs, dead_code)]
use std::borrow::Cow;
use std::fmt;
#[derive(Clone, Debug)]
pub struct Number(f64);
#[derive(Debug, Clone)]
pub struct NumberError(String);
impl fmt::Display for NumberError { fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str(&self.0) } }
impl std::error::Error for NumberError {}
pub(crate) enum WireNumber<'a> { Int(i64), Float(f64), Text(Cow<'a, str>) }
impl Number {
    pub fn from_f64(f: f64) -> Option<Number> { (!f.is_nan()).then_some(Number(f)) }
    pub fn parse(s: &str) -> Result<Number, NumberError> { s.parse::<f64>().map(Number).map_err(|_| NumberError(format!("invalid number {s:?}"))) }
    pub fn to_i64(&self) -> Option<i64> { (self.0.fract() == 0.0 && self.0.abs() < 9e18).then_some(self.0 as i64) }
    pub fn to_f64(&self) -> f64 { self.0 }
    pub fn is_infinite(&self) -> bool { self.0.is_infinite() }
    pub fn is_float_origin(&self) -> bool { true }
    pub fn cmp_numeric(&self, o: &Number) -> std::cmp::Ordering { self.0.partial_cmp(&o.0).unwrap() }
    pub(crate) fn hash_text(&self) -> String { format!("{}", self.0) }
    pub(crate) fn wire(&self) -> WireNumber<'_> { match self.to_i64() { Some(i) => WireNumber::Int(i), None => WireNumber::Float(self.0) } }
}
impl std::str::FromStr for Number { type Err = NumberError; fn from_str(s: &str) -> Result<Number, NumberError> { Number::parse(s) } }
impl TryFrom<f64> for Number { type Error = NumberError; fn try_from(f: f64) -> Result<Number, NumberError> { Number::from_f64(f).ok_or(NumberError("NaN".into())) } }
impl PartialEq for Number { fn eq(&self, o: &Number) -> bool { self.0 == o.0 } }
impl Eq for Number {}
impl std::hash::Hash for Number { fn hash<H: std::hash::Hasher>(&self, h: &mut H) { self.0.to_bits().hash(h) } }
impl fmt::Display for Number { fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { write!(f, "{}", self.0) } }
macro_rules! from { ($($t:ty),*) => {$( impl From<$t> for Number { fn from(n: $t) -> Number { Number(n as f64) } } )*}; }
from!(i8, i16, i32, i64, u8, u16, u32, u64, usize);

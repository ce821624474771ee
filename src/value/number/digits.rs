//! Decimal digit strings (Go's `decimal` model) and the shortest digits of a float64:
//! the text Go's `strconv` and `big.Float` write for a number.

use super::*;

/// Significant decimal digits (ASCII, no trailing zeros) and the point position:
/// value = 0.DIGITS × 10^exp. No digits is zero.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Digits {
    pub(super) d: Vec<u8>,
    pub(super) exp: i64,
}

impl Digits {
    pub(super) fn zero() -> Digits {
        Digits {
            d: Vec::new(),
            exp: 0,
        }
    }

    /// The digits of an integer's text (no sign).
    pub(super) fn from_integer_text(text: String) -> Digits {
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
    pub(super) fn exact(m: &BigUint, e: i64) -> Digits {
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

    pub(super) fn at(&self, i: i64) -> u8 {
        if i >= 0 && (i as usize) < self.d.len() {
            self.d[i as usize]
        } else {
            b'0'
        }
    }

    /// Whether rounding to `n` digits is an exact tie (digit n is the last, and a 5).
    pub(super) fn is_tie_at(&self, n: usize) -> bool {
        self.d.len() == n + 1 && self.d[n] == b'5'
    }

    /// Rounds to at most `n` digits, to nearest, ties to even.
    pub(super) fn round(&mut self, n: usize) {
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

    pub(super) fn round_up(&mut self, n: usize) {
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

    pub(super) fn round_down(&mut self, n: usize) {
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
    pub(super) fn write_f<W: fmt::Write>(&self, out: &mut W) -> fmt::Result {
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
    pub(super) fn write_g(&self, out: &mut String, prec: Option<usize>) {
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

pub(super) fn ascii(b: &[u8]) -> &str {
    std::str::from_utf8(b).unwrap_or("")
}

pub(super) fn write_zeros<W: fmt::Write>(out: &mut W, mut n: usize) -> fmt::Result {
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
pub(super) fn go_shortest(f: f64) -> Digits {
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
    pub(super) len: usize,
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
pub(super) fn shortest_digits(f: f64) -> Digits {
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

{-# LANGUAGE TemplateHaskell, DeriveDataTypeable #-}
-- Benchmark 4 (regexp.md): repetition does not distribute over intersection.
-- Port for lazy-search, to time it run for run beside `bench` (see
-- tools/peers/README.md).
module Main (main) where

import Control.Search hiding (Cool(..))
import Data.Typeable
import GHC.Conc (pseq)
import Common

-- Constructors in declaration order (regexp.md).
data RE = Atom [Nat]
        | Or RE RE
        | Seq RE RE
        | And RE RE
        | Star RE
        | Eps
        deriving (Show, Typeable)

deriveEnumerable ''Nat
deriveEnumerable ''RE

-- Acceptance -----------------------------------------------------------------

accepts :: RE -> [Nat] -> Bool
accepts re s = case re of
  Atom w  -> matchWord w s
  Or a b  -> accepts a s || accepts b s
  Seq a b -> splitSeq a b [] s
  And a b -> accepts a s && accepts b s
  Star a  -> case s of
               []       -> True
               (c : cs) -> splitStar a [c] cs
  Eps     -> case s of { [] -> True; _ -> False }

-- w's cell, then s's cell, then the symbols
matchWord :: [Nat] -> [Nat] -> Bool
matchWord w s = case w of
  []       -> case s of { [] -> True; _ -> False }
  (c : cs) -> case s of
                []       -> False
                (d : ds) -> eqNat c d && matchWord cs ds

splitSeq :: RE -> RE -> [Nat] -> [Nat] -> Bool
splitSeq a b pre rest =
  (accepts a pre && accepts b rest)
  || (case rest of
        []       -> False
        (c : cs) -> splitSeq a b (pre ++ [c]) cs)

splitStar :: RE -> [Nat] -> [Nat] -> Bool
splitStar a pre rest =
  (accepts a pre && accepts (Star a) rest)
  || (case rest of
        []       -> False
        (c : cs) -> splitStar a (pre ++ [c]) cs)

-- Derived operations (strict: the built skeleton is complete before a
-- function returns; `pseq` fixes the order of the reads) -------------------

rep :: Nat -> RE -> RE
rep i r = case i of
  Z   -> Eps
  S j -> let t = rep j r in t `pseq` Seq r t

-- max(0, a - b); reads b, then a, at each step; a returned unread
monus :: Nat -> Nat -> Nat
monus a b = case b of
  Z    -> a
  S b1 -> case a of
            Z    -> Z
            S a1 -> monus a1 b1

repBetween :: Nat -> Nat -> RE -> RE
repBetween lo hi r = go lo (monus hi lo)
  where
    go i d = case d of
      Z    -> rep i r
      S d1 -> let h = rep i r
              in h `pseq` (let t = go (S i) d1 in t `pseq` Or h t)

-- Property ------------------------------------------------------------------

iff :: Bool -> Bool -> Bool
iff a b = case a of { True -> b; False -> not b }

-- The left-hand expression is built and matched first, then the right-hand
-- side is built and matched (regexp.md "Order").
prop :: (Nat, Nat, RE, RE, [Nat]) -> Bool
prop (n, k, p, q, s) =
  let lhsRE = repBetween n k (And p q)
      l     = lhsRE `pseq` accepts lhsRE s
      r     = l `pseq` (let rp = repBetween n k p
                            rq = repBetween n k q
                        in rp `pseq` rq `pseq` accepts (And rp rq) s)
  in l `pseq` iff l r

-- Variant with the right-hand side matched first (both sides built first),
-- as neatcheck's regexp.rs does; only used for the ctrex comparison.
propRhsFirst :: (Nat, Nat, RE, RE, [Nat]) -> Bool
propRhsFirst (n, k, p, q, s) =
  let lhsRE = repBetween n k (And p q)
      rp    = repBetween n k p
      rq    = repBetween n k q
      rhsRE = And rp rq
      r     = accepts rhsRE s
      l     = accepts lhsRE s
  in lhsRE `pseq` rp `pseq` rq `pseq` r `pseq` l `pseq` (l == r)

main :: IO ()
-- all mode uses propRhsFirst: the same reading order as neatcheck's regexp.rs
-- (and the only order that reproduces the spec's ctrex count 2339370; the
-- spec-order 'prop' gives 2335620 there). all-mode counts are the same for both.
main = mainWith (\b o -> runAll o b propRhsFirst) (\b -> runCtrex b prop >> putStrLn "-- rhs first:" >> runCtrex b propRhsFirst)

{-# LANGUAGE TemplateHaskell, DeriveDataTypeable, BangPatterns #-}
-- Turner's abstraction (`benchmarks::small_programs::turner_abstraction`,
-- tools/src/benchmarks/small_programs.rs) for the original NEAT,
-- lazy-search: the same property, written to read the input in the order
-- the Rust version reads it, so that both make the same runs at every
-- bound. The Rust version rewrites a term that is partly input and partly
-- built by the rewriting (`Term`); a node's constructor is read where the
-- rewriting looks at it (`hd`, which also reads the variable or the
-- combinator of a leaf, as `Term::head` does), and every function is
-- strict where the Rust one is (`abstr` builds both halves before
-- `optimise` looks at them). Prints, for each size bound from 0 to MAX,
-- the runs of an exhaustive `searchRaw'` with strategy D and the CPU
-- seconds that bound took:
--
--   turner sound MAX  ->  "bound N runs K cpu S" per bound
--
-- (`sound` is read and ignored: the driver passes it to every program.)
-- `versus_lazy_search --program turner --peer <this binary>` runs it beside
-- neatcheck and checks that the runs agree at every bound.
module Main (main) where

import Control.Monad (forM_)
import Control.Search
import Data.Typeable
import System.CPUTime (getCPUTime)
import System.Environment (getArgs)
import System.IO (BufferMode (LineBuffering), hSetBuffering, stdout)
import Text.Printf (printf)

data Var = V0 | V1 deriving (Eq, Show, Typeable)

data Comb = I | K | B | C | S | C2 | B2 | S2 deriving (Eq, Show, Typeable)

data Exp = App Exp Exp | Lam Var Exp | Var Var | Comb Comb deriving (Show, Typeable)

deriveEnumerable ''Var
deriveEnumerable ''Comb
deriveEnumerable ''Exp

-- | A term under rewriting: a part of the input or a node built by it.
data Term = Input Exp | TApp !Term !Term | TVar !Var | TComb !Comb

-- | A term's outermost constructor, with input fields still unread.
data Head = HApp Term Term | HLam !Var Exp | HVar !Var | HComb !Comb

hd :: Term -> Head
hd (Input e) = case e of
  App f x -> HApp (Input f) (Input x)
  Lam v b -> v `seq` HLam v b
  Var v -> v `seq` HVar v
  Comb c -> c `seq` HComb c
hd (TApp f x) = HApp f x
hd (TVar v) = HVar v
hd (TComb c) = HComb c

app :: Term -> Term -> Term
app = TApp

apply :: Comb -> [Term] -> Term
apply c = foldl app (TComb c)

-- | The arguments when the term is `c a1 ... aN`, read outermost first.
spine :: Int -> Comb -> Term -> Maybe [Term]
spine n c t0 = go n t0 []
  where
    go 0 t acc = case hd t of
      HComb d | d == c -> Just acc
      _ -> Nothing
    go k t acc = case hd t of
      HApp f x -> go (k - 1) f (x : acc)
      _ -> Nothing

abstr :: Var -> Term -> Term
abstr v e = case hd e of
  HApp f x ->
    let !f' = abstr v f
        !x' = abstr v x
     in optimise (apply S [f', x'])
  HVar w | w == v -> TComb I
  _ -> app (TComb K) e

kOf :: Term -> Maybe Term
kOf t = case spine 1 K t of
  Just [a] -> Just a
  _ -> Nothing

bOf :: Term -> Maybe (Term, Term)
bOf t = case spine 2 B t of
  Just [a, b] -> Just (a, b)
  _ -> Nothing

isI :: Term -> Bool
isI t = case hd t of
  HComb I -> True
  _ -> False

optimise :: Term -> Term
optimise e = case spine 2 S e of
  Just [p, q] -> case kOf p of
    Just kp -> case kOf q of
      Just kq -> apply K [app kp kq]
      Nothing
        | isI q -> kp
        | Just (q1, r1) <- bOf q -> apply B2 [kp, q1, r1]
        | otherwise -> apply B [kp, q]
    -- (The Rust version evaluates both halves of this test, as a pair.)
    Nothing -> case (bOf p, kOf q) of
      (!bp, !kq) | Just (p1, q1) <- bp, Just r <- kq -> apply C2 [p1, q1, r]
      _ -> case kOf q of
        Just q1 -> apply C [p, q1]
        Nothing -> case bOf p of
          Just (p1, q1) -> apply S2 [p1, q1, q]
          Nothing -> apply S [p, q]
  _ -> e

reduce :: Term -> Maybe Term
reduce e
  | Just [a] <- spine 1 I e = Just a
  | Just [a, _] <- spine 2 K e = Just a
  | Just [f, g, x] <- spine 3 S e = Just (app (app f x) (app g x))
  | Just [f, g, x] <- spine 3 B e = Just (app f (app g x))
  | Just [f, g, x] <- spine 3 C e = Just (app (app f x) g)
  | Just [k, f, g, x] <- spine 4 B2 e = Just (app k (app f (app g x)))
  | Just [k, f, g, x] <- spine 4 C2 e = Just (app (app k (app f x)) g)
  | Just [k, f, g, x] <- spine 4 S2 e = Just (app (app k (app f x)) (app g x))
  | otherwise = Nothing

-- | The Rust version's `simplify`: a step is spent before each attempt to
-- reduce at the root; then both sides of an application, left first.
simplify :: Term -> Int -> Maybe (Term, Int)
simplify e steps
  | steps == 0 = Nothing
  | otherwise = case reduce e of
      Just e' -> simplify e' (steps - 1)
      Nothing -> case hd e of
        HApp f x -> do
          (!f', left) <- simplify f (steps - 1)
          (!x', left') <- simplify x left
          Just (app f' x', left')
        _ -> Just (e, steps - 1)

-- | Whether two terms are equal, reading both only until they differ: the
-- left-hand sides of applications first, each pair's first term first.
same :: Term -> Term -> Bool
same a0 b0 = go [(a0, b0)]
  where
    go [] = True
    go ((a, b) : pending) =
      let !ha = hd a
          !hb = hd b
       in case (ha, hb) of
            (HApp f x, HApp g y) -> go ((f, g) : (x, y) : pending)
            (HLam v e, HLam w f)
              | v /= w -> False
              | otherwise -> go ((Input e, Input f) : pending)
            (HVar v, HVar w) | v == w -> go pending
            (HComb c, HComb d) | c == d -> go pending
            _ -> False

turner :: (Var, Exp) -> Bool
turner (v, e) =
  v `seq`
    let input = Input e
        !applied = app (abstr v input) (TVar v)
     in case simplify applied 1000 of
          Just (normal, _) -> same normal input
          Nothing -> True

main :: IO ()
main = do
  [_, maxBound'] <- getArgs
  hSetBuffering stdout LineBuffering
  forM_ [0 .. read maxBound'] $ \n -> do
    start <- getCPUTime
    outcomes <- searchRaw' D n turner
    let runs = length outcomes
    end <- runs `seq` getCPUTime
    printf "bound %d runs %d cpu %.6f\n" n runs (fromIntegral (end - start) / 1e12 :: Double)

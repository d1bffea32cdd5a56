{-# LANGUAGE TemplateHaskell, DeriveDataTypeable #-}
-- Benchmark 5 (imperative.md): programs of a small imperative language that
-- satisfy five invariants joined by parallel conjunction (Cool).
-- Port for lazy-search, to time it run for run beside `bench` (see
-- tools/peers/README.md).
module Main (main) where

import Control.Search hiding (Seq)
import Data.Typeable
import Common

-- Types, constructors in declaration order (imperative.md).
data Exp  = Var Nat | Lit Bool | Add Exp Exp deriving (Show, Typeable)
data Stmt = Skip
          | Assign Nat Exp
          | Seq Stmt Stmt
          | If Exp Stmt Stmt
          | While Exp Stmt
          | Decl Nat Stmt
          deriving (Show, Typeable)

deriveEnumerable ''Nat
deriveEnumerable ''Exp
deriveEnumerable ''Stmt

-- ys: a list built by the predicate
memberNat :: Nat -> [Nat] -> Bool
memberNat x ys = case ys of
  []         -> False
  (y : rest) -> eqNat x y || memberNat x rest

-- 1. every declared variable is read by some expression in its scope
noUnused :: Stmt -> Bool
noUnused s = case s of
  Skip       -> True
  Assign _ _ -> True
  Seq a b    -> noUnused a && noUnused b
  If _ a b   -> noUnused a && noUnused b
  While _ a  -> noUnused a
  Decl x a   -> usedS x a && noUnused a

usedS :: Nat -> Stmt -> Bool
usedS x s = case s of
  Skip       -> False
  Assign _ e -> usedE x e
  Seq a b    -> usedS x a || usedS x b
  If c a b   -> usedE x c || (usedS x a || usedS x b)
  While c a  -> usedE x c || usedS x a
  Decl y a   -> if eqNat y x then False else usedS x a

usedE :: Nat -> Exp -> Bool
usedE x e = case e of
  Var y   -> eqNat y x
  Lit _   -> False
  Add a b -> usedE x a || usedE x b

-- 2. no if-statement inside a branch of an if-statement
noNestedIf :: Stmt -> Bool
noNestedIf s = case s of
  Skip       -> True
  Assign _ _ -> True
  Seq a b    -> noNestedIf a && noNestedIf b
  If _ a b   -> noIf a && noIf b
  While _ a  -> noNestedIf a
  Decl _ a   -> noNestedIf a

noIf :: Stmt -> Bool
noIf s = case s of
  Skip       -> True
  Assign _ _ -> True
  Seq a b    -> noIf a && noIf b
  If _ _ _   -> False
  While _ a  -> noIf a
  Decl _ a   -> noIf a

-- 3. no skip statements
noSkip :: Stmt -> Bool
noSkip s = case s of
  Skip       -> False
  Assign _ _ -> True
  Seq a b    -> noSkip a && noSkip b
  If _ a b   -> noSkip a && noSkip b
  While _ a  -> noSkip a
  Decl _ a   -> noSkip a

-- 4. declarations only at the top
declsTop :: Stmt -> Bool
declsTop s = case s of
  Decl _ a -> declsTop a
  _        -> noDecl s

noDecl :: Stmt -> Bool
noDecl s = case s of
  Skip       -> True
  Assign _ _ -> True
  Seq a b    -> noDecl a && noDecl b
  If _ a b   -> noDecl a && noDecl b
  While _ a  -> noDecl a
  Decl _ _   -> False

-- 5. every variable assigned or read is declared by an enclosing Decl
allBound :: Stmt -> Bool
allBound s = boundS [] s

-- env: built list of names, innermost first
boundS :: [Nat] -> Stmt -> Bool
boundS env s = case s of
  Skip       -> True
  Assign x e -> memberNat x env && boundE env e
  Seq a b    -> boundS env a && boundS env b
  If c a b   -> boundE env c && (boundS env a && boundS env b)
  While c a  -> boundE env c && boundS env a
  Decl x a   -> boundS (x : env) a

boundE :: [Nat] -> Exp -> Bool
boundE env e = case e of
  Var x   -> memberNat x env
  Lit _   -> True
  Add a b -> boundE env a && boundE env b

-- Building the formula reads nothing; each atom is evaluated when the
-- strategy needs it.
prop :: Stmt -> Cool
prop s = And (Atom (noUnused s))
             (And (Atom (noNestedIf s))
                  (And (Atom (noSkip s))
                       (And (Atom (declsTop s))
                            (Atom (allBound s)))))

main :: IO ()
main = mainWith (\b o -> runAll o b prop) (\_ -> error "ctrex mode not provided for Imperative")
